CREATE OR REPLACE FUNCTION "pks_invoices_keep_document"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'UPDATE' THEN
    RAISE EXCEPTION 'invoices keeps every invoice (void it instead): % is not allowed', TG_OP
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF (NEW.id, NEW.invoice_no, NEW.delivery_id, NEW.client_id, NEW.amount, NEW.tax_rate,
      NEW.expected_payment_date, NEW.issue_date, NEW.created_by, NEW.created_at)
     IS DISTINCT FROM (OLD.id, OLD.invoice_no, OLD.delivery_id, OLD.client_id, OLD.amount, OLD.tax_rate,
      OLD.expected_payment_date, OLD.issue_date, OLD.created_by, OLD.created_at)
     OR (NEW.profit IS DISTINCT FROM OLD.profit
         AND (OLD.payment_status = 'void' OR NEW.profit IS DISTINCT FROM pks_invoice_profit_of(OLD.id))) THEN
    RAISE EXCEPTION 'invoice % is issued: its number, client, deliveries, amount, tax rate and dates never change, and its profit only follows its deliveries'' costs', OLD.invoice_no
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF OLD.payment_status = 'void'
     AND (NEW.payment_status, NEW.amount_paid, NEW.amount_withheld, NEW.amount_credited, NEW.void_reason, NEW.voided_at, NEW.voided_by)
       IS DISTINCT FROM (OLD.payment_status, OLD.amount_paid, OLD.amount_withheld, OLD.amount_credited, OLD.void_reason, OLD.voided_at, OLD.voided_by) THEN
    RAISE EXCEPTION 'invoice % is void, and a void is final', OLD.invoice_no USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF NEW.payment_status = 'void' AND OLD.payment_status <> 'void'
     AND (EXISTS (SELECT 1 FROM payments WHERE invoice_id = OLD.id)
          OR EXISTS (SELECT 1 FROM credit_notes WHERE invoice_id = OLD.id)
          OR EXISTS (SELECT 1 FROM withholdings WHERE invoice_id = OLD.id)) THEN
    RAISE EXCEPTION 'invoice % has payments or credit notes and cannot be voided: issue a credit note instead', OLD.invoice_no
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "invoices_keep_document" BEFORE UPDATE OR DELETE ON "invoices" FOR EACH ROW EXECUTE FUNCTION pks_invoices_keep_document();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "invoices_no_truncate" BEFORE TRUNCATE ON "invoices" FOR EACH STATEMENT EXECUTE FUNCTION pks_invoices_keep_document();
