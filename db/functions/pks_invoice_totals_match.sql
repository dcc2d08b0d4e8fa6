CREATE OR REPLACE FUNCTION "pks_invoice_totals_match"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  inv integer;
  kept record;
  paid numeric;
  credited numeric;
  withheld numeric;
BEGIN
  -- Each branch names only its own table's column (PL/pgSQL resolves NEW's fields per row type).
  IF TG_TABLE_NAME = 'invoices' THEN
    inv := NEW.id;
  ELSE
    inv := NEW.invoice_id;
  END IF;
  SELECT i.invoice_no, i.amount_paid, i.amount_credited, i.amount_withheld INTO kept FROM invoices i WHERE i.id = inv;
  SELECT coalesce(sum(p.amount), 0) INTO paid FROM payments p WHERE p.invoice_id = inv;
  SELECT coalesce(sum(c.amount), 0) INTO credited FROM credit_notes c WHERE c.invoice_id = inv;
  SELECT coalesce(sum(w.wht + w.vat), 0) INTO withheld FROM withholdings w WHERE w.invoice_id = inv;
  IF kept.amount_paid <> paid OR kept.amount_credited <> credited THEN
    RAISE EXCEPTION 'invoice % says paid % and credited %, but its payments add up to % and its credit notes to %',
      kept.invoice_no, kept.amount_paid, kept.amount_credited, paid, credited
      USING ERRCODE = 'check_violation';
  END IF;
  IF kept.amount_withheld <> withheld THEN
    RAISE EXCEPTION 'invoice % says withheld %, but its withholdings add up to %', kept.invoice_no, kept.amount_withheld, withheld
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS "credit_notes_totals_match" ON "credit_notes";
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "credit_notes_totals_match" AFTER INSERT ON "credit_notes"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION pks_invoice_totals_match();
--> statement-breakpoint
DROP TRIGGER IF EXISTS "invoices_totals_match" ON "invoices";
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "invoices_totals_match" AFTER UPDATE OF "amount_paid", "amount_credited", "amount_withheld" ON "invoices"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION pks_invoice_totals_match();
--> statement-breakpoint
DROP TRIGGER IF EXISTS "payments_totals_match" ON "payments";
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "payments_totals_match" AFTER INSERT ON "payments"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION pks_invoice_totals_match();
--> statement-breakpoint
DROP TRIGGER IF EXISTS "withholdings_totals_match" ON "withholdings";
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "withholdings_totals_match" AFTER INSERT ON "withholdings"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION pks_invoice_totals_match();
