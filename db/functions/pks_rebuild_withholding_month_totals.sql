CREATE OR REPLACE FUNCTION "pks_rebuild_withholding_month_totals"() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM withholding_month_totals;
  INSERT INTO withholding_month_totals (month, withholding_count, reversal_count, wht, vat)
  SELECT date_trunc('month', w.withholding_date)::date,
    count(*) FILTER (WHERE w.reverses_withholding_id IS NULL)::int,
    count(*) FILTER (WHERE w.reverses_withholding_id IS NOT NULL)::int,
    sum(w.wht), sum(w.vat)
  FROM withholdings w GROUP BY 1;
END $$;
