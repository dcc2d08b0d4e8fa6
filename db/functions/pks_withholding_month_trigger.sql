CREATE OR REPLACE FUNCTION "pks_withholding_month_trigger"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO withholding_month_totals AS t (month, withholding_count, reversal_count, wht, vat)
  VALUES (date_trunc('month', NEW.withholding_date)::date,
    CASE WHEN NEW.reverses_withholding_id IS NULL THEN 1 ELSE 0 END,
    CASE WHEN NEW.reverses_withholding_id IS NULL THEN 0 ELSE 1 END, NEW.wht, NEW.vat)
  ON CONFLICT (month) DO UPDATE SET
    withholding_count = t.withholding_count + excluded.withholding_count,
    reversal_count = t.reversal_count + excluded.reversal_count,
    wht = t.wht + excluded.wht,
    vat = t.vat + excluded.vat;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "withholdings_month_totals" AFTER INSERT ON "withholdings" FOR EACH ROW EXECUTE FUNCTION pks_withholding_month_trigger();
