CREATE OR REPLACE FUNCTION "pks_invoice_lines_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'invoice_lines is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "invoice_lines_no_truncate" BEFORE TRUNCATE ON "invoice_lines" FOR EACH STATEMENT EXECUTE FUNCTION pks_invoice_lines_append_only();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "invoice_lines_no_update_delete" BEFORE UPDATE OR DELETE ON "invoice_lines" FOR EACH ROW EXECUTE FUNCTION pks_invoice_lines_append_only();
