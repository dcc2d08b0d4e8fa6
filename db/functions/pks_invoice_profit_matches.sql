CREATE OR REPLACE FUNCTION "pks_invoice_profit_matches"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  inv integer;
  kept record;
  recount numeric;
BEGIN
  IF TG_TABLE_NAME = 'invoices' THEN
    inv := NEW.id;
  ELSE
    inv := NEW.invoice_id;
  END IF;
  IF inv IS NULL THEN
    RETURN NULL;
  END IF;
  SELECT i.invoice_no, i.profit, i.payment_status INTO kept FROM invoices i WHERE i.id = inv;
  IF kept.payment_status = 'void' THEN
    RETURN NULL;
  END IF;
  recount := pks_invoice_profit_of(inv);
  IF kept.profit IS DISTINCT FROM recount THEN
    RAISE EXCEPTION 'invoice % says profit %, but its deliveries come to %', kept.invoice_no, kept.profit, recount
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS "deliveries_invoice_profit_matches" ON "deliveries";
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "deliveries_invoice_profit_matches"
  AFTER UPDATE OF "tons", "received_tons", "quality_deduction_tons", "pay_basis", "buying_rate", "selling_rate",
    "logistics_cost", "other_costs" ON "deliveries"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION pks_invoice_profit_matches();
--> statement-breakpoint
DROP TRIGGER IF EXISTS "invoices_profit_matches" ON "invoices";
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "invoices_profit_matches" AFTER UPDATE OF "profit" ON "invoices"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION pks_invoice_profit_matches();
