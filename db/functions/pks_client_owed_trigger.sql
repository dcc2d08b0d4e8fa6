CREATE OR REPLACE FUNCTION "pks_client_owed_trigger"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  old_bal numeric := 0;
  new_bal numeric := 0;
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.payment_status <> 'void' THEN
    old_bal := OLD.amount - OLD.amount_paid - OLD.amount_withheld - OLD.amount_credited;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') AND NEW.payment_status <> 'void' THEN
    new_bal := NEW.amount - NEW.amount_paid - NEW.amount_withheld - NEW.amount_credited;
  END IF;
  IF TG_OP = 'UPDATE' AND OLD.client_id = NEW.client_id AND OLD.expected_payment_date = NEW.expected_payment_date THEN
    IF new_bal <> old_bal THEN
      PERFORM pks_client_owed_add(NEW.client_id, NEW.expected_payment_date,
        greatest(new_bal, 0) - greatest(old_bal, 0), least(new_bal, 0) - least(old_bal, 0));
    END IF;
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') AND old_bal <> 0 THEN
    PERFORM pks_client_owed_add(OLD.client_id, OLD.expected_payment_date, -greatest(old_bal, 0), -least(old_bal, 0));
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') AND new_bal <> 0 THEN
    PERFORM pks_client_owed_add(NEW.client_id, NEW.expected_payment_date, greatest(new_bal, 0), least(new_bal, 0));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "invoices_client_owed" AFTER INSERT OR UPDATE OR DELETE ON "invoices" FOR EACH ROW EXECUTE FUNCTION pks_client_owed_trigger();
