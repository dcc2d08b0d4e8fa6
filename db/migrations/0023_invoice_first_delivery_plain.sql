-- An invoice's first delivery (the spec's deliveryId) becomes a plain column, like
-- invoice_lines.delivery_id (decision 0921): the foreign key made deleting a delivery freed by a
-- void an error (a 500 for the admin who deleted it). While an invoice stands, its deliveries are
-- kept by the deliveries_keep_invoiced trigger (migration 0022) instead.
ALTER TABLE "invoices" DROP CONSTRAINT "invoices_delivery_id_deliveries_id_fk";
