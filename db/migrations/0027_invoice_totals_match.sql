-- What an invoice says was paid and credited (amount_paid, amount_credited) is the sum of its
-- payment rows and of its credit-note rows, reversals included (decision 0920, addendum of stop
-- 33). The models keep them so in one transaction, and db:check recounts them; the database now
-- refuses, at commit, any transaction that leaves one different, whoever sends it: a script, a
-- console, a future model. Deferred to commit, because a payment's row and its invoice's total
-- are written one after the other.
-- First, the invoices already out of line, if any: the check would refuse every later payment or
-- credit note on them. The migration stops and names them (db:check lists them too), rather than
-- let the app start and refuse those writes one by one.
DO $$
DECLARE
  bad text;
BEGIN
  SELECT string_agg(x.invoice_no, ', ') INTO bad FROM (
    SELECT i.invoice_no FROM invoices i
    WHERE i.amount_paid <> coalesce((SELECT sum(p.amount) FROM payments p WHERE p.invoice_id = i.id), 0)
       OR i.amount_credited <> coalesce((SELECT sum(c.amount) FROM credit_notes c WHERE c.invoice_id = i.id), 0)
    ORDER BY i.id LIMIT 20) x;
  IF bad IS NOT NULL THEN
    RAISE EXCEPTION 'invoices whose paid or credited total is not the sum of their payments or credit notes: % (run npm run db:check, then correct them before upgrading)', bad
      USING ERRCODE = 'check_violation';
  END IF;
END $$;
--> statement-breakpoint
CREATE FUNCTION "pks_invoice_totals_match"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  inv integer;
  kept record;
  paid numeric;
  credited numeric;
BEGIN
  -- Each branch names only its own table's column (PL/pgSQL resolves NEW's fields per row type).
  IF TG_TABLE_NAME = 'invoices' THEN
    inv := NEW.id;
  ELSE
    inv := NEW.invoice_id;
  END IF;
  SELECT i.invoice_no, i.amount_paid, i.amount_credited INTO kept FROM invoices i WHERE i.id = inv;
  SELECT coalesce(sum(p.amount), 0) INTO paid FROM payments p WHERE p.invoice_id = inv;
  SELECT coalesce(sum(c.amount), 0) INTO credited FROM credit_notes c WHERE c.invoice_id = inv;
  IF kept.amount_paid <> paid OR kept.amount_credited <> credited THEN
    RAISE EXCEPTION 'invoice % says paid % and credited %, but its payments add up to % and its credit notes to %',
      kept.invoice_no, kept.amount_paid, kept.amount_credited, paid, credited
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "invoices_totals_match" AFTER UPDATE OF "amount_paid", "amount_credited" ON "invoices"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION pks_invoice_totals_match();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "payments_totals_match" AFTER INSERT ON "payments"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION pks_invoice_totals_match();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "credit_notes_totals_match" AFTER INSERT ON "credit_notes"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION pks_invoice_totals_match();
