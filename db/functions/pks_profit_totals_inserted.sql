CREATE OR REPLACE FUNCTION "pks_profit_totals_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pks_profit_totals_apply('{}', array(SELECT n::deliveries FROM new_rows n));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "deliveries_profit_totals_inserted" AFTER INSERT ON "deliveries" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION pks_profit_totals_inserted();
