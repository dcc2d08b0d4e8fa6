ALTER TABLE "credit_notes" DROP CONSTRAINT "credit_notes_amount_positive";--> statement-breakpoint
ALTER TABLE "credit_notes" ALTER COLUMN "credit_note_no" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD COLUMN "reverses_credit_note_id" integer;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_reverses_credit_note_id_credit_notes_id_fk" FOREIGN KEY ("reverses_credit_note_id") REFERENCES "public"."credit_notes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "credit_notes_reverses_idx" ON "credit_notes" USING btree ("reverses_credit_note_id");--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_entry_kind" CHECK (("credit_notes"."reverses_credit_note_id" is null and "credit_notes"."credit_note_no" is not null and "credit_notes"."amount" > 0) or ("credit_notes"."reverses_credit_note_id" is not null and "credit_notes"."credit_note_no" is null and "credit_notes"."amount" < 0));--> statement-breakpoint
-- Credit notes are money: never rewritten or removed (docs/decisions/0920, addendum of 26
-- November, second part). Row triggers refuse UPDATE and DELETE; a statement trigger refuses
-- TRUNCATE. A credit note issued in error is taken back by a reversal row instead.
CREATE FUNCTION "pks_credit_notes_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'credit_notes is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
END $$;
--> statement-breakpoint
CREATE TRIGGER "credit_notes_no_update_delete" BEFORE UPDATE OR DELETE ON "credit_notes" FOR EACH ROW EXECUTE FUNCTION pks_credit_notes_append_only();
--> statement-breakpoint
CREATE TRIGGER "credit_notes_no_truncate" BEFORE TRUNCATE ON "credit_notes" FOR EACH STATEMENT EXECUTE FUNCTION pks_credit_notes_append_only();
--> statement-breakpoint
-- A reversal takes back exactly its credit note: same invoice, opposite amount, and a credit
-- note, not another reversal (reverseCreditNote checks these first; the table holds them too).
CREATE FUNCTION "pks_credit_note_reversal_check"() RETURNS trigger LANGUAGE plpgsql AS $$
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
CREATE TRIGGER "credit_notes_reversal_check" BEFORE INSERT ON "credit_notes" FOR EACH ROW EXECUTE FUNCTION pks_credit_note_reversal_check();
