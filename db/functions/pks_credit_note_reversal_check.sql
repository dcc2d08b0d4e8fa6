CREATE OR REPLACE FUNCTION "pks_credit_note_reversal_check"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  target credit_notes%ROWTYPE;
BEGIN
  IF NEW.reverses_credit_note_id IS NULL THEN
    RETURN NEW;
  END IF;
  SELECT * INTO target FROM credit_notes WHERE id = NEW.reverses_credit_note_id;
  IF target.id IS NULL OR target.reverses_credit_note_id IS NOT NULL
      OR target.invoice_id <> NEW.invoice_id OR NEW.amount <> -target.amount THEN
    RAISE EXCEPTION 'a reversal must take back one credit note of its invoice, for its whole amount'
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "credit_notes_reversal_check" BEFORE INSERT ON "credit_notes" FOR EACH ROW EXECUTE FUNCTION pks_credit_note_reversal_check();
