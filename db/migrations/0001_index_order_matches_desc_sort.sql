DROP INDEX "deliveries_date_idx";--> statement-breakpoint
DROP INDEX "deliveries_creator_date_idx";--> statement-breakpoint
DROP INDEX "payments_date_idx";--> statement-breakpoint
CREATE INDEX "deliveries_date_idx" ON "deliveries" USING btree ("date" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "deliveries_creator_date_idx" ON "deliveries" USING btree ("created_by","date" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "payments_date_idx" ON "payments" USING btree ("payment_date" DESC NULLS FIRST,"id" DESC NULLS FIRST);