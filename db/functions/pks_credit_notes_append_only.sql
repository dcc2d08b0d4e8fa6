CREATE OR REPLACE FUNCTION "pks_credit_notes_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'credit_notes is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "credit_notes_no_truncate" BEFORE TRUNCATE ON "credit_notes" FOR EACH STATEMENT EXECUTE FUNCTION pks_credit_notes_append_only();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "credit_notes_no_update_delete" BEFORE UPDATE OR DELETE ON "credit_notes" FOR EACH ROW EXECUTE FUNCTION pks_credit_notes_append_only();
