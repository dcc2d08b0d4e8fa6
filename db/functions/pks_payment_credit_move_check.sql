CREATE OR REPLACE FUNCTION "pks_payment_credit_move_check"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  source payments%ROWTYPE;
BEGIN
  IF NEW.credit_from_payment_id IS NULL THEN
    RETURN NEW;
  END IF;
  SELECT * INTO source FROM payments WHERE id = NEW.credit_from_payment_id;
  IF source.id IS NULL OR source.credit_moved_to_invoice_id IS DISTINCT FROM NEW.invoice_id
      OR NEW.amount <> -source.amount
      OR (SELECT client_id FROM invoices WHERE id = source.invoice_id)
         IS DISTINCT FROM (SELECT client_id FROM invoices WHERE id = NEW.invoice_id) THEN
    RAISE EXCEPTION 'a credit moved in must take what one credit moved out of an invoice of the same client gave'
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "payments_credit_move_check" BEFORE INSERT ON "payments" FOR EACH ROW EXECUTE FUNCTION pks_payment_credit_move_check();
