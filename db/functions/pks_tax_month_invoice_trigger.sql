CREATE OR REPLACE FUNCTION "pks_tax_month_invoice_trigger"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.issue_date = NEW.issue_date AND OLD.amount = NEW.amount AND OLD.tax_rate = NEW.tax_rate
      AND (OLD.payment_status = 'void') = (NEW.payment_status = 'void') THEN
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    IF OLD.payment_status = 'void' THEN
      PERFORM pks_tax_month_add(OLD.issue_date, OLD.tax_rate, 0, 0, -1, 0, 0, 0);
    ELSE
      PERFORM pks_tax_month_add(OLD.issue_date, OLD.tax_rate, -1, -OLD.amount, 0, 0, 0, 0);
    END IF;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    IF NEW.payment_status = 'void' THEN
      PERFORM pks_tax_month_add(NEW.issue_date, NEW.tax_rate, 0, 0, 1, 0, 0, 0);
    ELSE
      PERFORM pks_tax_month_add(NEW.issue_date, NEW.tax_rate, 1, NEW.amount, 0, 0, 0, 0);
    END IF;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "invoices_0_tax_month" AFTER INSERT OR UPDATE OR DELETE ON "invoices" FOR EACH ROW EXECUTE FUNCTION pks_tax_month_invoice_trigger();
