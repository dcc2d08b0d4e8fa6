-- What an invoice says and what it covered are never rewritten or removed (docs/decisions/0920,
-- addendum "the database keeps invoices as issued"). The models already refuse these changes;
-- the table now refuses them too, for any writer: a script, a console, a future model.
--
-- An invoice row changes only in what follows from payments, credit notes and a void: its
-- status, what was paid and credited, the void's reason, time and author, and updated_at. A
-- void is final. It is never deleted or truncated.
CREATE FUNCTION "pks_invoices_keep_document"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'UPDATE' THEN
    RAISE EXCEPTION 'invoices keeps every invoice (void it instead): % is not allowed', TG_OP
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF (NEW.id, NEW.invoice_no, NEW.delivery_id, NEW.client_id, NEW.amount, NEW.tax_rate, NEW.profit,
      NEW.expected_payment_date, NEW.issue_date, NEW.created_by, NEW.created_at)
     IS DISTINCT FROM (OLD.id, OLD.invoice_no, OLD.delivery_id, OLD.client_id, OLD.amount, OLD.tax_rate,
      OLD.profit, OLD.expected_payment_date, OLD.issue_date, OLD.created_by, OLD.created_at) THEN
    RAISE EXCEPTION 'invoice % is issued: its number, client, deliveries, amount, tax rate, profit and dates never change', OLD.invoice_no
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF OLD.payment_status = 'void'
     AND (NEW.payment_status, NEW.amount_paid, NEW.amount_credited, NEW.void_reason, NEW.voided_at, NEW.voided_by)
       IS DISTINCT FROM (OLD.payment_status, OLD.amount_paid, OLD.amount_credited, OLD.void_reason, OLD.voided_at, OLD.voided_by) THEN
    RAISE EXCEPTION 'invoice % is void, and a void is final', OLD.invoice_no USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER "invoices_keep_document" BEFORE UPDATE OR DELETE ON "invoices" FOR EACH ROW EXECUTE FUNCTION pks_invoices_keep_document();
--> statement-breakpoint
CREATE TRIGGER "invoices_no_truncate" BEFORE TRUNCATE ON "invoices" FOR EACH STATEMENT EXECUTE FUNCTION pks_invoices_keep_document();
--> statement-breakpoint
-- An invoice's lines are the record of what it covered (decision 0921): append-only.
CREATE FUNCTION "pks_invoice_lines_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'invoice_lines is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
END $$;
--> statement-breakpoint
CREATE TRIGGER "invoice_lines_no_update_delete" BEFORE UPDATE OR DELETE ON "invoice_lines" FOR EACH ROW EXECUTE FUNCTION pks_invoice_lines_append_only();
--> statement-breakpoint
CREATE TRIGGER "invoice_lines_no_truncate" BEFORE TRUNCATE ON "invoice_lines" FOR EACH STATEMENT EXECUTE FUNCTION pks_invoice_lines_append_only();
--> statement-breakpoint
-- A delivery on an invoice keeps its tons, rates and client (the edit form's rule,
-- INVOICED_LOCKED in app/models/delivery.server.ts), is never deleted, and leaves its invoice
-- only when that invoice is void (voidInvoice frees its deliveries after voiding it). The
-- trigger fires only for rows on an invoice, so drafts and confirmed deliveries pay nothing.
CREATE FUNCTION "pks_deliveries_keep_invoiced"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    RAISE EXCEPTION 'deliveries keeps its invoiced deliveries: TRUNCATE is not allowed' USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'delivery % is on an invoice and is never removed', OLD.id USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF (NEW.id, NEW.tons, NEW.buying_rate, NEW.selling_rate, NEW.client_id)
     IS DISTINCT FROM (OLD.id, OLD.tons, OLD.buying_rate, OLD.selling_rate, OLD.client_id) THEN
    RAISE EXCEPTION 'delivery % is on an invoice: its tons, rates and client never change', OLD.id
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF NEW.invoice_id IS DISTINCT FROM OLD.invoice_id
     AND (NEW.invoice_id IS NOT NULL
          OR NOT EXISTS (SELECT 1 FROM invoices WHERE id = OLD.invoice_id AND payment_status = 'void')) THEN
    RAISE EXCEPTION 'delivery % leaves its invoice only when the invoice is void', OLD.id
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER "deliveries_keep_invoiced" BEFORE UPDATE OR DELETE ON "deliveries" FOR EACH ROW
  WHEN (OLD.invoice_id IS NOT NULL) EXECUTE FUNCTION pks_deliveries_keep_invoiced();
--> statement-breakpoint
CREATE TRIGGER "deliveries_no_truncate" BEFORE TRUNCATE ON "deliveries" FOR EACH STATEMENT EXECUTE FUNCTION pks_deliveries_keep_invoiced();
