CREATE OR REPLACE FUNCTION "pks_profit_totals_recount"()
RETURNS TABLE (month date, kind text, agent_id integer, client_id integer, site text, n bigint, n_priced bigint,
  n_received bigint, loaded_tons numeric, received_tons numeric, accepted_tons numeric, shortage_tons numeric,
  deduction_tons numeric, revenue numeric, buying_cost numeric, haulage numeric, other_costs numeric)
LANGUAGE sql STABLE AS $$
  -- profit_month_totals counted again from the deliveries (docs/decisions/1270): what
  -- pks_rebuild_profit_totals() writes and db:check compares the kept rows with.
  SELECT date_trunc('month', d.date)::date, k.kind,
    CASE WHEN k.kind = 'agent' THEN d.agent_id END, CASE WHEN k.kind = 'client' THEN d.client_id END,
    CASE WHEN k.kind = 'site' THEN d.location END,
    count(*), count(d.selling_rate), count(d.received_tons),
    sum(d.tons), coalesce(sum(d.received_tons), 0), coalesce(sum(d.accepted_tons), 0),
    coalesce(sum(d.tons - d.received_tons), 0), coalesce(sum(d.quality_deduction_tons), 0),
    coalesce(sum(d.invoiced_tons * d.selling_rate), 0),
    coalesce(sum(d.paid_tons * coalesce(d.buying_rate, 0)) FILTER (WHERE d.selling_rate IS NOT NULL), 0),
    coalesce(sum(coalesce(d.logistics_cost, 0)) FILTER (WHERE d.selling_rate IS NOT NULL), 0),
    coalesce(sum(coalesce(d.other_costs, 0)) FILTER (WHERE d.selling_rate IS NOT NULL), 0)
  FROM deliveries d CROSS JOIN (VALUES ('agent'), ('client'), ('site')) k(kind)
  WHERE d.status IN ('confirmed', 'invoiced')
  GROUP BY 1, 2, 3, 4, 5
$$;
