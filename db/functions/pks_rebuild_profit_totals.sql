CREATE OR REPLACE FUNCTION "pks_rebuild_profit_totals"() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM profit_month_totals;
  INSERT INTO profit_month_totals (month, kind, agent_id, client_id, site, n, n_priced, n_received, loaded_tons,
    received_tons, accepted_tons, shortage_tons, deduction_tons, revenue, buying_cost, haulage, other_costs)
  SELECT * FROM pks_profit_totals_recount();
END $$;
