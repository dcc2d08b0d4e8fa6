CREATE OR REPLACE FUNCTION "pks_payment_totals_trigger"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO payment_day_totals AS t (payment_date, client_id, n, amount)
    SELECT OLD.payment_date, i.client_id, -1, -OLD.amount FROM invoices i WHERE i.id = OLD.invoice_id
    ON CONFLICT (payment_date, client_id) DO UPDATE SET n = t.n + excluded.n, amount = t.amount + excluded.amount;
  END IF;
  IF TG_OP = 'UPDATE' THEN
    INSERT INTO payment_day_totals AS t (payment_date, client_id, n, amount)
    SELECT NEW.payment_date, i.client_id, 1, NEW.amount FROM invoices i WHERE i.id = NEW.invoice_id
    ON CONFLICT (payment_date, client_id) DO UPDATE SET n = t.n + excluded.n, amount = t.amount + excluded.amount;
  END IF;
  IF TG_OP = 'INSERT' THEN
    -- The row's own day, and for the reversal of a payment received that payment's day: one
    -- statement, one row per day, in date order (two writers take day rows in one order).
    INSERT INTO payment_day_totals AS t (payment_date, client_id, n, amount, received)
    SELECT x.day, i.client_id, sum(x.n), sum(x.amount), sum(x.received)
    FROM (
      SELECT NEW.payment_date AS day, 1 AS n, NEW.amount AS amount,
        CASE WHEN pks_payment_is_received(NEW) THEN 1 ELSE 0 END AS received
      UNION ALL
      SELECT o.payment_date, 0, 0, -1 FROM payments o WHERE o.id = NEW.reverses_payment_id AND pks_payment_is_received(o)
    ) x JOIN invoices i ON i.id = NEW.invoice_id
    GROUP BY x.day, i.client_id ORDER BY x.day
    ON CONFLICT (payment_date, client_id) DO UPDATE SET n = t.n + excluded.n, amount = t.amount + excluded.amount,
      received = t.received + excluded.received;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "payments_totals" AFTER INSERT OR UPDATE OR DELETE ON "payments" FOR EACH ROW EXECUTE FUNCTION pks_payment_totals_trigger();
