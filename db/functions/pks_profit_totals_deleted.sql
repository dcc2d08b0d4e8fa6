CREATE OR REPLACE FUNCTION "pks_profit_totals_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pks_profit_totals_apply(array(SELECT o::deliveries FROM old_rows o), '{}');
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "deliveries_profit_totals_deleted" AFTER DELETE ON "deliveries" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION pks_profit_totals_deleted();
