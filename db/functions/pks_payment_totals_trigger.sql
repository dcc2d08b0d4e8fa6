CREATE OR REPLACE FUNCTION "pks_payment_totals_trigger"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO payment_day_totals AS t (payment_date, client_id, n, amount)
    SELECT OLD.payment_date, i.client_id, -1, -OLD.amount FROM invoices i WHERE i.id = OLD.invoice_id
    ON CONFLICT (payment_date, client_id) DO UPDATE SET n = t.n + excluded.n, amount = t.amount + excluded.amount;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    INSERT INTO payment_day_totals AS t (payment_date, client_id, n, amount)
    SELECT NEW.payment_date, i.client_id, 1, NEW.amount FROM invoices i WHERE i.id = NEW.invoice_id
    ON CONFLICT (payment_date, client_id) DO UPDATE SET n = t.n + excluded.n, amount = t.amount + excluded.amount;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "payments_totals" AFTER INSERT OR UPDATE OR DELETE ON "payments" FOR EACH ROW EXECUTE FUNCTION pks_payment_totals_trigger();
