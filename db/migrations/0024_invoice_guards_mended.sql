-- Mends to migrations 0022 and 0023 (docs/decisions/0920, addendum of stop 29), found in review.
--
-- 1. The recount of invoices per month (Reconciliation's invoice count and number range) joined
--    an invoice to its first delivery, which 0023 lets be deleted once a void freed it: a rebuild
--    then lost that invoice. It now takes the month from the invoice's own line for that
--    delivery (its date when invoiced, as the insert trigger took it), and from the delivery only
--    for rows bulk-loaded without lines (the bench and the scale test).
CREATE OR REPLACE FUNCTION "pks_rebuild_invoice_totals"() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM delivery_day_totals;
  DELETE FROM delivery_month_totals;
  DELETE FROM invoice_status_totals;
  DELETE FROM payment_day_totals;
  INSERT INTO delivery_day_totals (day, n_all, n_confirmed, n_invoiced, n_eligible, tons, revenue, profit)
  SELECT date, count(*), count(*) FILTER (WHERE status = 'confirmed'), count(*) FILTER (WHERE status = 'invoiced'),
    count(*) FILTER (WHERE status = 'confirmed' AND client_id IS NOT NULL AND invoice_id IS NULL),
    coalesce(sum(tons) FILTER (WHERE status IN ('confirmed', 'invoiced')), 0),
    coalesce(sum(tons * selling_rate) FILTER (WHERE status IN ('confirmed', 'invoiced')), 0),
    coalesce(sum(tons * selling_rate - (tons * coalesce(buying_rate, 0) + coalesce(logistics_cost, 0) + coalesce(other_costs, 0)))
      FILTER (WHERE status IN ('confirmed', 'invoiced') AND selling_rate IS NOT NULL), 0)
  FROM deliveries GROUP BY date;
  INSERT INTO delivery_month_totals (month, n_all, n_confirmed, n_invoiced, n_eligible, tons, revenue, profit)
  SELECT date_trunc('month', day)::date, sum(n_all), sum(n_confirmed), sum(n_invoiced), sum(n_eligible), sum(tons), sum(revenue), sum(profit)
  FROM delivery_day_totals GROUP BY 1;
  INSERT INTO delivery_month_totals AS t (month, invoice_count, first_invoice_no, last_invoice_no)
  SELECT date_trunc('month', coalesce(l.date, d.date))::date, count(*), min(i.invoice_no::bigint), max(i.invoice_no::bigint)
  FROM invoices i
    LEFT JOIN invoice_lines l ON l.invoice_id = i.id AND l.delivery_id = i.delivery_id
    LEFT JOIN deliveries d ON d.id = i.delivery_id
  WHERE coalesce(l.date, d.date) IS NOT NULL
  GROUP BY 1
  ON CONFLICT (month) DO UPDATE SET invoice_count = excluded.invoice_count, first_invoice_no = excluded.first_invoice_no,
    last_invoice_no = excluded.last_invoice_no;
  INSERT INTO invoice_status_totals (payment_status, due_date, owed, n, amount, amount_paid, amount_credited)
  SELECT payment_status, expected_payment_date, amount_paid + amount_credited < amount, count(*), sum(amount), sum(amount_paid),
    sum(amount_credited)
  FROM invoices WHERE payment_status <> 'void' GROUP BY 1, 2, 3;
  INSERT INTO payment_day_totals (payment_date, client_id, n, amount)
  SELECT p.payment_date, i.client_id, count(*), sum(p.amount) FROM payments p JOIN invoices i ON i.id = p.invoice_id GROUP BY 1, 2;
  INSERT INTO invoice_counter (id, last_no) SELECT 1, coalesce(max(invoice_no::bigint), 126) FROM invoices
  ON CONFLICT (id) DO UPDATE SET last_no = greatest(invoice_counter.last_no, excluded.last_no);
  INSERT INTO credit_note_counter (id, last_no) SELECT 1, coalesce(max(substr(credit_note_no, 4)::bigint), 0) FROM credit_notes
  ON CONFLICT (id) DO UPDATE SET last_no = greatest(credit_note_counter.last_no, excluded.last_no);
END $$;
--> statement-breakpoint
-- 2. What the dropped foreign key also did: an invoice is written only for a delivery that exists.
CREATE FUNCTION "pks_invoices_first_delivery_exists"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM deliveries WHERE id = NEW.delivery_id) THEN
    RAISE EXCEPTION 'invoice % names delivery %, which does not exist', NEW.invoice_no, NEW.delivery_id
      USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER "invoices_first_delivery_exists" BEFORE INSERT ON "invoices" FOR EACH ROW EXECUTE FUNCTION pks_invoices_first_delivery_exists();
--> statement-breakpoint
-- 3. A delivery on an invoice stays "invoiced": its status changes only as it leaves the invoice.
CREATE OR REPLACE FUNCTION "pks_deliveries_keep_invoiced"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    RAISE EXCEPTION 'deliveries keeps its invoiced deliveries: TRUNCATE is not allowed' USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'delivery % is on an invoice and is never removed', OLD.id USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF (NEW.id, NEW.tons, NEW.buying_rate, NEW.selling_rate, NEW.client_id)
     IS DISTINCT FROM (OLD.id, OLD.tons, OLD.buying_rate, OLD.selling_rate, OLD.client_id) THEN
    RAISE EXCEPTION 'delivery % is on an invoice: its tons, rates and client never change', OLD.id
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF NEW.invoice_id IS DISTINCT FROM OLD.invoice_id
     AND (NEW.invoice_id IS NOT NULL
          OR NOT EXISTS (SELECT 1 FROM invoices WHERE id = OLD.invoice_id AND payment_status = 'void')) THEN
    RAISE EXCEPTION 'delivery % leaves its invoice only when the invoice is void', OLD.id
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF NEW.invoice_id IS NOT NULL AND NEW.status <> 'invoiced' THEN
    RAISE EXCEPTION 'delivery % is on an invoice: its status stays invoiced', OLD.id USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN NEW;
END $$;
