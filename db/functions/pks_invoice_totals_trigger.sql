CREATE OR REPLACE FUNCTION "pks_invoice_totals_trigger"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND (OLD.payment_status, OLD.expected_payment_date, OLD.amount, OLD.amount_paid, OLD.amount_withheld, OLD.amount_credited)
      IS NOT DISTINCT FROM (NEW.payment_status, NEW.expected_payment_date, NEW.amount, NEW.amount_paid, NEW.amount_withheld, NEW.amount_credited) THEN
    RETURN NULL;
  END IF;
  -- Both status rows in one fixed order (by status name), whichever way the invoice moves.
  IF TG_OP = 'UPDATE' AND NEW.payment_status < OLD.payment_status THEN
    PERFORM pks_invoice_status_add_v3(NEW.payment_status, NEW.expected_payment_date, NEW.amount, NEW.amount_paid, NEW.amount_withheld, NEW.amount_credited, 1);
    PERFORM pks_invoice_status_add_v3(OLD.payment_status, OLD.expected_payment_date, OLD.amount, OLD.amount_paid, OLD.amount_withheld, OLD.amount_credited, -1);
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM pks_invoice_status_add_v3(OLD.payment_status, OLD.expected_payment_date, OLD.amount, OLD.amount_paid, OLD.amount_withheld, OLD.amount_credited, -1);
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    PERFORM pks_invoice_status_add_v3(NEW.payment_status, NEW.expected_payment_date, NEW.amount, NEW.amount_paid, NEW.amount_withheld, NEW.amount_credited, 1);
  END IF;
  IF TG_OP = 'INSERT' THEN
    INSERT INTO delivery_month_totals AS t (month, invoice_count, first_invoice_no, last_invoice_no)
    SELECT date_trunc('month', d.date)::date, 1, NEW.invoice_no::bigint, NEW.invoice_no::bigint FROM deliveries d WHERE d.id = NEW.delivery_id
    ON CONFLICT (month) DO UPDATE SET invoice_count = t.invoice_count + 1,
      first_invoice_no = least(t.first_invoice_no, excluded.first_invoice_no),
      last_invoice_no = greatest(t.last_invoice_no, excluded.last_invoice_no);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "invoices_totals" AFTER INSERT OR UPDATE OR DELETE ON "invoices" FOR EACH ROW EXECUTE FUNCTION pks_invoice_totals_trigger();
