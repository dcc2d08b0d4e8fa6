CREATE OR REPLACE FUNCTION "pks_payment_credit_move_pairs"() RETURNS trigger LANGUAGE plpgsql AS $$
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
DROP TRIGGER IF EXISTS "payments_credit_move_pairs" ON "payments";
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "payments_credit_move_pairs" AFTER INSERT ON "payments" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (NEW.credit_moved_to_invoice_id IS NOT NULL OR NEW.reverses_payment_id IS NOT NULL)
  EXECUTE FUNCTION pks_payment_credit_move_pairs();
