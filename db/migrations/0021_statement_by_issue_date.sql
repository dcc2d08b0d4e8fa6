-- A client's statement dates an invoice by its issue date, as its document and the tax report
-- do (docs/decisions/0990): the period's invoices are read through this index.
DROP INDEX "invoices_client_created_idx";--> statement-breakpoint
CREATE INDEX "invoices_client_issue_idx" ON "invoices" USING btree ("client_id","issue_date");