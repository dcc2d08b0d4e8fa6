CREATE OR REPLACE FUNCTION "pks_delivery_totals_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pks_delivery_totals_apply(array(SELECT o::deliveries FROM old_rows o), array(SELECT n::deliveries FROM new_rows n));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "deliveries_totals_updated" AFTER UPDATE ON "deliveries" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION pks_delivery_totals_updated();
