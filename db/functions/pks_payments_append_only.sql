CREATE OR REPLACE FUNCTION "pks_payments_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'payments is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "payments_no_truncate" BEFORE TRUNCATE ON "payments" FOR EACH STATEMENT EXECUTE FUNCTION pks_payments_append_only();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "payments_no_update_delete" BEFORE UPDATE OR DELETE ON "payments" FOR EACH ROW EXECUTE FUNCTION pks_payments_append_only();
