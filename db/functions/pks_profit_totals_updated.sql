CREATE OR REPLACE FUNCTION "pks_profit_totals_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pks_profit_totals_apply(array(SELECT o::deliveries FROM old_rows o), array(SELECT n::deliveries FROM new_rows n));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "deliveries_profit_totals_updated" AFTER UPDATE ON "deliveries" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION pks_profit_totals_updated();
