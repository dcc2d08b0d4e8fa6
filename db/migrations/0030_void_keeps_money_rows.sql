-- Stop 38 (decision 0970, addendum): the client statement reads its period's totals and the reach
-- of a page of lines from payment_day_totals, which counts every payment row of a client's
-- invoices, void or not, while the statement's lines leave out a void invoice's payments. The
-- two agree only while no void invoice has a payment row (nor a credit note row): voidInvoice
-- refuses to void an invoice that has any, and recordPayment and createCreditNote refuse a void
-- invoice. Now the database refuses both for any writer (a console, a script): voiding an
-- invoice with money rows, and a money row on a void invoice. A payment and its reversal add up
-- to nothing, so no total catches either.
-- First, the void invoices that already have such rows, if any: the migration stops and names
-- them (db:check lists them too).
DO $$
DECLARE
  bad text;
BEGIN
  SELECT string_agg(x.invoice_no, ', ') INTO bad FROM (
    SELECT i.invoice_no FROM invoices i
    WHERE i.payment_status = 'void'
      AND (EXISTS (SELECT 1 FROM payments p WHERE p.invoice_id = i.id)
           OR EXISTS (SELECT 1 FROM credit_notes c WHERE c.invoice_id = i.id))
    ORDER BY i.id LIMIT 20) x;
  IF bad IS NOT NULL THEN
    RAISE EXCEPTION 'void invoices with payment or credit note rows: % (run npm run db:check, then correct them before upgrading)', bad
      USING ERRCODE = 'check_violation';
  END IF;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "pks_invoices_keep_document"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'UPDATE' THEN
    RAISE EXCEPTION 'invoices keeps every invoice (void it instead): % is not allowed', TG_OP
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF (NEW.id, NEW.invoice_no, NEW.delivery_id, NEW.client_id, NEW.amount, NEW.tax_rate, NEW.profit,
      NEW.expected_payment_date, NEW.issue_date, NEW.created_by, NEW.created_at)
     IS DISTINCT FROM (OLD.id, OLD.invoice_no, OLD.delivery_id, OLD.client_id, OLD.amount, OLD.tax_rate,
      OLD.profit, OLD.expected_payment_date, OLD.issue_date, OLD.created_by, OLD.created_at) THEN
    RAISE EXCEPTION 'invoice % is issued: its number, client, deliveries, amount, tax rate, profit and dates never change', OLD.invoice_no
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
-- A payment or credit note row only on an invoice that is not void. The invoice row is read FOR
-- SHARE: a void of it running at the same time waits for this row's transaction, and then sees
-- the row (or this insert waits for the void, and then sees it void).
CREATE FUNCTION "pks_money_rows_not_on_void"() RETURNS trigger LANGUAGE plpgsql AS $$
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
CREATE TRIGGER "payments_not_on_void" BEFORE INSERT ON "payments" FOR EACH ROW EXECUTE FUNCTION pks_money_rows_not_on_void();
--> statement-breakpoint
CREATE TRIGGER "credit_notes_not_on_void" BEFORE INSERT ON "credit_notes" FOR EACH ROW EXECUTE FUNCTION pks_money_rows_not_on_void();
--> statement-breakpoint
CREATE INDEX "payment_day_totals_client_day_idx" ON "payment_day_totals" USING btree ("client_id","payment_date");
