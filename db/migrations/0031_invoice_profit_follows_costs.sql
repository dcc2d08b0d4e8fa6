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
