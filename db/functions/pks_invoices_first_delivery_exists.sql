CREATE OR REPLACE FUNCTION "pks_invoices_first_delivery_exists"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM deliveries WHERE id = NEW.delivery_id) THEN
    RAISE EXCEPTION 'invoice % names delivery %, which does not exist', NEW.invoice_no, NEW.delivery_id
      USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "invoices_first_delivery_exists" BEFORE INSERT ON "invoices" FOR EACH ROW EXECUTE FUNCTION pks_invoices_first_delivery_exists();
