ALTER TABLE "payments" DROP CONSTRAINT "payments_amount_positive";--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "reverses_payment_id" integer;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "note" text;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_reverses_payment_id_payments_id_fk" FOREIGN KEY ("reverses_payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payments_reverses_idx" ON "payments" USING btree ("reverses_payment_id");--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_amount_sign" CHECK (("payments"."reverses_payment_id" is null and "payments"."amount" > 0) or ("payments"."reverses_payment_id" is not null and "payments"."amount" < 0));--> statement-breakpoint
-- Payments are money: never rewritten or removed (docs/decisions/0920, addendum). Row triggers
-- refuse UPDATE and DELETE; a statement trigger refuses TRUNCATE. A payment recorded in error
-- is taken back by a reversal row instead.
CREATE FUNCTION "pks_payments_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'payments is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
END $$;
--> statement-breakpoint
CREATE TRIGGER "payments_no_update_delete" BEFORE UPDATE OR DELETE ON "payments" FOR EACH ROW EXECUTE FUNCTION pks_payments_append_only();
--> statement-breakpoint
CREATE TRIGGER "payments_no_truncate" BEFORE TRUNCATE ON "payments" FOR EACH STATEMENT EXECUTE FUNCTION pks_payments_append_only();
--> statement-breakpoint
-- A reversal takes back exactly its payment: same invoice, opposite amount, and a payment, not
-- another reversal (reversePayment checks these first; the table holds them too).
CREATE FUNCTION "pks_payment_reversal_check"() RETURNS trigger LANGUAGE plpgsql AS $$
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
CREATE TRIGGER "payments_reversal_check" BEFORE INSERT ON "payments" FOR EACH ROW EXECUTE FUNCTION pks_payment_reversal_check();
