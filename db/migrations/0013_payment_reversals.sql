ALTER TABLE "payments" DROP CONSTRAINT "payments_amount_positive";--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "reverses_payment_id" integer;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "note" text;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_reverses_payment_id_payments_id_fk" FOREIGN KEY ("reverses_payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payments_reverses_idx" ON "payments" USING btree ("reverses_payment_id");--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_amount_sign" CHECK (("payments"."reverses_payment_id" is null and "payments"."amount" > 0) or ("payments"."reverses_payment_id" is not null and "payments"."amount" < 0));