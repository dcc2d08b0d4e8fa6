ALTER TABLE "payments" DROP CONSTRAINT "payments_entry_kind";--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_entry_kind" CHECK (("payments"."reverses_payment_id" is null and not "payments"."refund" and "payments"."credit_moved_to_invoice_id" is null and "payments"."amount" > 0) or ("payments"."reverses_payment_id" is null and "payments"."refund" and "payments"."credit_moved_to_invoice_id" is null and "payments"."credit_from_payment_id" is null and "payments"."amount" < 0 and "payments"."note" is not null) or ("payments"."reverses_payment_id" is null and not "payments"."refund" and "payments"."credit_moved_to_invoice_id" is not null and "payments"."credit_moved_to_invoice_id" <> "payments"."invoice_id" and "payments"."credit_from_payment_id" is null and "payments"."amount" < 0) or ("payments"."reverses_payment_id" is not null and not "payments"."refund" and "payments"."credit_moved_to_invoice_id" is null and "payments"."credit_from_payment_id" is null and "payments"."amount" <> 0));--> statement-breakpoint
-- A credit move is two entries or none, and is reversed whole (docs/decisions/0920, addendum
-- "moving a client credit to another invoice"): checked when the transaction commits, so
-- applyClientCredit and reversePayment may write the two entries one after the other.
CREATE FUNCTION "pks_payment_credit_move_pairs"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  target payments%ROWTYPE;
  partner_id integer;
BEGIN
  IF NEW.credit_moved_to_invoice_id IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM payments WHERE credit_from_payment_id = NEW.id) THEN
    RAISE EXCEPTION 'a credit moved out needs its credit moved in' USING ERRCODE = 'check_violation';
  END IF;
  IF NEW.reverses_payment_id IS NOT NULL THEN
    SELECT * INTO target FROM payments WHERE id = NEW.reverses_payment_id;
    partner_id := CASE
      WHEN target.credit_moved_to_invoice_id IS NOT NULL THEN (SELECT id FROM payments WHERE credit_from_payment_id = target.id)
      WHEN target.credit_from_payment_id IS NOT NULL THEN target.credit_from_payment_id
    END;
    IF partner_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM payments WHERE reverses_payment_id = partner_id) THEN
      RAISE EXCEPTION 'a credit move is reversed whole: both of its entries' USING ERRCODE = 'check_violation';
    END IF;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "payments_credit_move_pairs" AFTER INSERT ON "payments" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (NEW.credit_moved_to_invoice_id IS NOT NULL OR NEW.reverses_payment_id IS NOT NULL)
  EXECUTE FUNCTION pks_payment_credit_move_pairs();
