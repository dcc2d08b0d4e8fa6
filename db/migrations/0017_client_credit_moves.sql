ALTER TABLE "payments" DROP CONSTRAINT "payments_entry_kind";--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "credit_moved_to_invoice_id" integer;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "credit_from_payment_id" integer;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_credit_moved_to_invoice_id_invoices_id_fk" FOREIGN KEY ("credit_moved_to_invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_credit_from_payment_id_payments_id_fk" FOREIGN KEY ("credit_from_payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoices_client_owed_due_idx" ON "invoices" USING btree ("client_id","expected_payment_date","id") WHERE ("invoices"."amount_paid" + "invoices"."amount_credited" < "invoices"."amount" and "invoices"."payment_status" <> 'void');--> statement-breakpoint
CREATE UNIQUE INDEX "payments_credit_from_idx" ON "payments" USING btree ("credit_from_payment_id");--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_entry_kind" CHECK (("payments"."reverses_payment_id" is null and not "payments"."refund" and "payments"."credit_moved_to_invoice_id" is null and "payments"."amount" > 0) or ("payments"."reverses_payment_id" is null and "payments"."refund" and "payments"."credit_moved_to_invoice_id" is null and "payments"."credit_from_payment_id" is null and "payments"."amount" < 0 and "payments"."note" is not null) or ("payments"."reverses_payment_id" is null and not "payments"."refund" and "payments"."credit_moved_to_invoice_id" is not null and "payments"."credit_from_payment_id" is null and "payments"."amount" < 0) or ("payments"."reverses_payment_id" is not null and not "payments"."refund" and "payments"."credit_moved_to_invoice_id" is null and "payments"."credit_from_payment_id" is null and "payments"."amount" <> 0));--> statement-breakpoint
-- A credit moved in takes exactly what the credit moved out gave: the opposite amount, to the
-- invoice it named, of the same client (applyClientCredit checks these first; the table holds
-- them too). docs/decisions/0920, addendum "moving a client credit to another invoice".
CREATE FUNCTION "pks_payment_credit_move_check"() RETURNS trigger LANGUAGE plpgsql AS $$
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
CREATE TRIGGER "payments_credit_move_check" BEFORE INSERT ON "payments" FOR EACH ROW EXECUTE FUNCTION pks_payment_credit_move_check();
