CREATE OR REPLACE FUNCTION "pks_payment_reversal_check"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  target payments%ROWTYPE;
BEGIN
  IF NEW.reverses_payment_id IS NULL THEN
    RETURN NEW;
  END IF;
  SELECT * INTO target FROM payments WHERE id = NEW.reverses_payment_id;
  IF target.id IS NULL OR target.reverses_payment_id IS NOT NULL
      OR target.invoice_id <> NEW.invoice_id OR NEW.amount <> -target.amount THEN
    RAISE EXCEPTION 'a reversal must take back one payment of its invoice, for its whole amount'
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "payments_reversal_check" BEFORE INSERT ON "payments" FOR EACH ROW EXECUTE FUNCTION pks_payment_reversal_check();
