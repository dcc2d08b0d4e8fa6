-- Invoice money after the invoice is issued (decision 0300): the payments counted as received
-- (first, the column drizzle-kit made from db/schema.ts; its triggers at the end), and an
-- invoice's profit that follows its deliveries' costs.
ALTER TABLE "payment_day_totals" ADD COLUMN "received" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
-- An invoice's profit follows its deliveries' costs (decision 0300, "Profit follows the costs").
-- Haulage and other bills arrive after invoicing, and an invoiced delivery's logistics and other
-- costs may still be edited; its tons, rates and client may not. The invoice's profit is the
-- profit of the deliveries it holds, rounded once (app/rules/deliveries.server.ts,
-- invoiceProfitSql): the edit rewrites it in the same transaction and audits it.
--
-- What the document says still never changes. The profit is not on the document (not printed,
-- not in the PDF) and is now the one figure that may change, and only to its deliveries' recount;
-- a void invoice keeps everything, profit included.
--
-- The recount, the rule's SQL form (missing numbers count as 0, rounded half away from zero once).
CREATE FUNCTION "pks_invoice_profit_of"(inv integer) RETURNS numeric LANGUAGE sql STABLE AS $$
  SELECT round(coalesce(sum(d.tons * d.selling_rate), 0)
    - coalesce(sum(d.tons * coalesce(d.buying_rate, 0) + coalesce(d.logistics_cost, 0) + coalesce(d.other_costs, 0)), 0), 2)
  FROM deliveries d WHERE d.invoice_id = inv
$$;
--> statement-breakpoint
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
     AND (NEW.payment_status, NEW.amount_paid, NEW.amount_credited, NEW.void_reason, NEW.voided_at, NEW.voided_by)
       IS DISTINCT FROM (OLD.payment_status, OLD.amount_paid, OLD.amount_credited, OLD.void_reason, OLD.voided_at, OLD.voided_by) THEN
    RAISE EXCEPTION 'invoice % is void, and a void is final', OLD.invoice_no USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF NEW.payment_status = 'void' AND OLD.payment_status <> 'void'
     AND (EXISTS (SELECT 1 FROM payments WHERE invoice_id = OLD.id)
          OR EXISTS (SELECT 1 FROM credit_notes WHERE invoice_id = OLD.id)) THEN
    RAISE EXCEPTION 'invoice % has payments or credit notes and cannot be voided: issue a credit note instead', OLD.invoice_no
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
-- Invoices whose profit drifted from their deliveries before this rule (a cost edited after
-- invoicing) are brought to the recount, each with an audit event by the system saying why.
WITH drift AS (
  SELECT i.id, i.profit AS before, pks_invoice_profit_of(i.id) AS after
  FROM invoices i
  WHERE i.payment_status <> 'void' AND i.profit IS DISTINCT FROM pks_invoice_profit_of(i.id)
), fixed AS (
  UPDATE invoices i SET profit = drift.after, updated_at = now() FROM drift WHERE i.id = drift.id RETURNING i.id
)
INSERT INTO audit_events (actor_id, actor_email, action, entity_type, entity_id, before, after)
SELECT NULL, NULL, 'invoice.profit', 'invoice', drift.id::text,
  jsonb_build_object('profit', drift.before::text),
  jsonb_build_object('profit', drift.after::text, 'reason', 'costs of its deliveries edited after invoicing')
FROM drift JOIN fixed ON fixed.id = drift.id;
--> statement-breakpoint
-- At commit, whoever writes: an invoice's profit equals its deliveries' recount after any change
-- of the profit or of an invoiced delivery's figures, so a cost edit that forgets its invoice is
-- refused (deferred, because the delivery and its invoice are written one after the other).
CREATE FUNCTION "pks_invoice_profit_matches"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  inv integer;
  kept record;
  recount numeric;
BEGIN
  IF TG_TABLE_NAME = 'invoices' THEN
    inv := NEW.id;
  ELSE
    inv := NEW.invoice_id;
  END IF;
  IF inv IS NULL THEN
    RETURN NULL;
  END IF;
  SELECT i.invoice_no, i.profit, i.payment_status INTO kept FROM invoices i WHERE i.id = inv;
  IF kept.payment_status = 'void' THEN
    RETURN NULL;
  END IF;
  recount := pks_invoice_profit_of(inv);
  IF kept.profit IS DISTINCT FROM recount THEN
    RAISE EXCEPTION 'invoice % says profit %, but its deliveries come to %', kept.invoice_no, kept.profit, recount
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "invoices_profit_matches" AFTER UPDATE OF "profit" ON "invoices"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION pks_invoice_profit_matches();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "deliveries_invoice_profit_matches"
  AFTER UPDATE OF "tons", "buying_rate", "selling_rate", "logistics_cost", "other_costs" ON "deliveries"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION pks_invoice_profit_matches();

--> statement-breakpoint
-- "Total Payments" on the Payments page counts what a person means by a payment: money received
-- from a client that stands (decision 0300, "Total Payments"). `n` counts every row (a reversal,
-- a refund, a credit moved between invoices are rows too, and the statements count their lines
-- by it); `received` counts the payments received, on the day each was received, and a reversal
-- takes its payment's one back there. Payments are append-only (migration 0013): only inserts
-- arrive; a hand edit with the guards off is followed by pks_rebuild_totals(), which recounts it.
CREATE FUNCTION "pks_payment_is_received"(p payments) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
  SELECT p.reverses_payment_id IS NULL AND NOT p.refund AND p.credit_moved_to_invoice_id IS NULL
    AND p.credit_from_payment_id IS NULL
$$;
--> statement-breakpoint
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
-- The recount (pks_rebuild_totals calls it) counts them too.
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
  INSERT INTO payment_day_totals (payment_date, client_id, n, amount, received)
  SELECT p.payment_date, i.client_id, count(*), sum(p.amount), count(*) FILTER (WHERE pks_payment_is_received(p)
    AND NOT EXISTS (SELECT 1 FROM payments r WHERE r.reverses_payment_id = p.id))
  FROM payments p JOIN invoices i ON i.id = p.invoice_id GROUP BY 1, 2;
  INSERT INTO invoice_counter (id, last_no) SELECT 1, coalesce(max(invoice_no::bigint), 126) FROM invoices
  ON CONFLICT (id) DO UPDATE SET last_no = greatest(invoice_counter.last_no, excluded.last_no);
  INSERT INTO credit_note_counter (id, last_no) SELECT 1, coalesce(max(substr(credit_note_no, 4)::bigint), 0) FROM credit_notes
  ON CONFLICT (id) DO UPDATE SET last_no = greatest(credit_note_counter.last_no, excluded.last_no);
END $$;
--> statement-breakpoint
UPDATE payment_day_totals t SET received = r.received
FROM (
  SELECT p.payment_date, i.client_id, count(*) FILTER (WHERE pks_payment_is_received(p)
    AND NOT EXISTS (SELECT 1 FROM payments r WHERE r.reverses_payment_id = p.id))::int AS received
  FROM payments p JOIN invoices i ON i.id = p.invoice_id GROUP BY 1, 2
) r
WHERE t.payment_date = r.payment_date AND t.client_id = r.client_id;
