CREATE OR REPLACE FUNCTION "pks_tax_month_credit_note_trigger"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pks_tax_month_add(NEW.issue_date, (SELECT tax_rate FROM invoices WHERE id = NEW.invoice_id), 0, 0, 0,
    CASE WHEN NEW.reverses_credit_note_id IS NULL THEN 1 ELSE 0 END,
    CASE WHEN NEW.reverses_credit_note_id IS NULL THEN 0 ELSE 1 END, NEW.amount);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "credit_notes_tax_month" AFTER INSERT ON "credit_notes" FOR EACH ROW EXECUTE FUNCTION pks_tax_month_credit_note_trigger();
