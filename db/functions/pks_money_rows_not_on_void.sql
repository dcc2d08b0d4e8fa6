CREATE OR REPLACE FUNCTION "pks_money_rows_not_on_void"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  inv record;
BEGIN
  SELECT i.invoice_no, i.payment_status INTO inv FROM invoices i WHERE i.id = NEW.invoice_id FOR SHARE;
  IF inv.payment_status = 'void' THEN
    RAISE EXCEPTION 'invoice % is void: no payment or credit note is recorded on it', inv.invoice_no
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "credit_notes_not_on_void" BEFORE INSERT ON "credit_notes" FOR EACH ROW EXECUTE FUNCTION pks_money_rows_not_on_void();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "payments_not_on_void" BEFORE INSERT ON "payments" FOR EACH ROW EXECUTE FUNCTION pks_money_rows_not_on_void();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "withholdings_not_on_void" BEFORE INSERT ON "withholdings" FOR EACH ROW EXECUTE FUNCTION pks_money_rows_not_on_void();
