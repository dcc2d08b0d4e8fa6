CREATE OR REPLACE FUNCTION "pks_rebuild_totals"() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pks_rebuild_invoice_totals();
  PERFORM pks_rebuild_invoice_status_rollup();
  PERFORM pks_rebuild_agent_balances();
  PERFORM pks_rebuild_client_owed();
  PERFORM pks_rebuild_tax_month_totals();
  PERFORM pks_rebuild_withholding_month_totals();
  PERFORM pks_rebuild_profit_totals();
END $$;
