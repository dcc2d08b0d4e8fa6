CREATE OR REPLACE FUNCTION "pks_deliveries_keep_invoiced"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    RAISE EXCEPTION 'deliveries keeps its invoiced deliveries: TRUNCATE is not allowed' USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'delivery % is on an invoice and is never removed', OLD.id USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF (NEW.id, NEW.tons, NEW.received_tons, NEW.quality_deduction_tons, NEW.quality_rule_id, NEW.pay_basis,
      NEW.buying_rate, NEW.selling_rate, NEW.client_id)
     IS DISTINCT FROM (OLD.id, OLD.tons, OLD.received_tons, OLD.quality_deduction_tons, OLD.quality_rule_id, OLD.pay_basis,
      OLD.buying_rate, OLD.selling_rate, OLD.client_id) THEN
    RAISE EXCEPTION 'delivery % is on an invoice: its weights, rates and client never change', OLD.id
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF NEW.invoice_id IS DISTINCT FROM OLD.invoice_id
     AND (NEW.invoice_id IS NOT NULL
          OR NOT EXISTS (SELECT 1 FROM invoices WHERE id = OLD.invoice_id AND payment_status = 'void')) THEN
    RAISE EXCEPTION 'delivery % leaves its invoice only when the invoice is void', OLD.id
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF NEW.invoice_id IS NOT NULL AND NEW.status <> 'invoiced' THEN
    RAISE EXCEPTION 'delivery % is on an invoice: its status stays invoiced', OLD.id USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "deliveries_keep_invoiced" BEFORE UPDATE OR DELETE ON "deliveries" FOR EACH ROW
  WHEN (OLD.invoice_id IS NOT NULL) EXECUTE FUNCTION pks_deliveries_keep_invoiced();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "deliveries_no_truncate" BEFORE TRUNCATE ON "deliveries" FOR EACH STATEMENT EXECUTE FUNCTION pks_deliveries_keep_invoiced();
