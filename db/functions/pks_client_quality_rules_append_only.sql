CREATE OR REPLACE FUNCTION "pks_client_quality_rules_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'client_quality_rules is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "client_quality_rules_no_truncate" BEFORE TRUNCATE ON "client_quality_rules" FOR EACH STATEMENT EXECUTE FUNCTION pks_client_quality_rules_append_only();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "client_quality_rules_no_update_delete" BEFORE UPDATE OR DELETE ON "client_quality_rules" FOR EACH ROW EXECUTE FUNCTION pks_client_quality_rules_append_only();
