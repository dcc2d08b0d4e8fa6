CREATE OR REPLACE FUNCTION "pks_receipts_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: % is not allowed', TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "receipts_no_truncate" BEFORE TRUNCATE ON "receipts" FOR EACH STATEMENT EXECUTE FUNCTION pks_receipts_append_only();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "receipts_no_update_delete" BEFORE UPDATE OR DELETE ON "receipts" FOR EACH ROW EXECUTE FUNCTION pks_receipts_append_only();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "withholdings_no_truncate" BEFORE TRUNCATE ON "withholdings" FOR EACH STATEMENT EXECUTE FUNCTION pks_receipts_append_only();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "withholdings_no_update_delete" BEFORE UPDATE OR DELETE ON "withholdings" FOR EACH ROW EXECUTE FUNCTION pks_receipts_append_only();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "withholding_certificates_no_truncate" BEFORE TRUNCATE ON "withholding_certificates" FOR EACH STATEMENT EXECUTE FUNCTION pks_receipts_append_only();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "withholding_certificates_no_update_delete" BEFORE UPDATE OR DELETE ON "withholding_certificates" FOR EACH ROW EXECUTE FUNCTION pks_receipts_append_only();
