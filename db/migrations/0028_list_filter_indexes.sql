-- Stop 33 (issue 10 review): list filters that read more than their own rows.
-- - The audit trail by an entity id without its type, and by an actor's e-mail: each an (x, id)
--   index, so a page reads its events newest first (decision 0900, addendum of stop 33).
-- - The Invoices list's due-date range: the range's rows, not every newer invoice (decision 0502).
-- - The Payments reference search becomes a case-insensitive prefix, answered by this index on
--   lower(reference) (decision 0502, addendum of stop 33).
CREATE INDEX "audit_events_entity_id_idx" ON "audit_events" USING btree ("entity_id","id");--> statement-breakpoint
CREATE INDEX "audit_events_actor_email_idx" ON "audit_events" USING btree ("actor_email","id");--> statement-breakpoint
CREATE INDEX "invoices_due_id_idx" ON "invoices" USING btree ("expected_payment_date","id");--> statement-breakpoint
CREATE INDEX "payments_reference_prefix_idx" ON "payments" USING btree (lower("reference") text_pattern_ops);
