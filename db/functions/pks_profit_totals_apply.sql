CREATE OR REPLACE FUNCTION "pks_profit_totals_apply"(olds deliveries[], news deliveries[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF cardinality(olds) = 0 AND cardinality(news) = 0 THEN
    RETURN;
  END IF;
  -- One row per month and agent, per month and client, per month and pick-up site
  -- (docs/decisions/1270): the old rows' share taken away, the new rows' added, counted
  -- deliveries only. A group whose sums do not change is neither written nor locked; the others
  -- are written in key order, so two writers never take them in opposite orders.
  INSERT INTO profit_month_totals AS t (month, kind, agent_id, client_id, site, n, n_priced, n_received, loaded_tons,
    received_tons, accepted_tons, shortage_tons, deduction_tons, revenue, buying_cost, haulage, other_costs)
  SELECT date_trunc('month', d.date)::date, k.kind,
    CASE WHEN k.kind = 'agent' THEN d.agent_id END, CASE WHEN k.kind = 'client' THEN d.client_id END,
    CASE WHEN k.kind = 'site' THEN d.location END,
    sum(d.sign), sum(CASE WHEN d.selling_rate IS NOT NULL THEN d.sign ELSE 0 END),
    sum(CASE WHEN d.received_tons IS NOT NULL THEN d.sign ELSE 0 END),
    sum(d.sign * d.tons), sum(d.sign * coalesce(d.received_tons, 0)), sum(d.sign * coalesce(d.accepted_tons, 0)),
    sum(d.sign * coalesce(d.tons - d.received_tons, 0)), sum(d.sign * coalesce(d.quality_deduction_tons, 0)),
    sum(d.sign * coalesce(d.invoiced_tons * d.selling_rate, 0)),
    sum(CASE WHEN d.selling_rate IS NOT NULL THEN d.sign * d.paid_tons * coalesce(d.buying_rate, 0) ELSE 0 END),
    sum(CASE WHEN d.selling_rate IS NOT NULL THEN d.sign * coalesce(d.logistics_cost, 0) ELSE 0 END),
    sum(CASE WHEN d.selling_rate IS NOT NULL THEN d.sign * coalesce(d.other_costs, 0) ELSE 0 END)
  FROM (SELECT o.*, -1 AS sign FROM unnest(olds) o UNION ALL SELECT n.*, 1 AS sign FROM unnest(news) n) d
    CROSS JOIN (VALUES ('agent'), ('client'), ('site')) k(kind)
  WHERE d.status IN ('confirmed', 'invoiced')
  GROUP BY 1, 2, 3, 4, 5
  HAVING sum(d.sign) <> 0 OR sum(d.sign * d.tons) <> 0 OR sum(d.sign * coalesce(d.received_tons, 0)) <> 0
    OR sum(CASE WHEN d.selling_rate IS NOT NULL THEN d.sign ELSE 0 END) <> 0
    OR sum(CASE WHEN d.received_tons IS NOT NULL THEN d.sign ELSE 0 END) <> 0
    OR sum(d.sign * coalesce(d.accepted_tons, 0)) <> 0 OR sum(d.sign * coalesce(d.quality_deduction_tons, 0)) <> 0
    OR sum(d.sign * coalesce(d.invoiced_tons * d.selling_rate, 0)) <> 0
    OR sum(CASE WHEN d.selling_rate IS NOT NULL THEN d.sign * d.paid_tons * coalesce(d.buying_rate, 0) ELSE 0 END) <> 0
    OR sum(CASE WHEN d.selling_rate IS NOT NULL THEN d.sign * coalesce(d.logistics_cost, 0) ELSE 0 END) <> 0
    OR sum(CASE WHEN d.selling_rate IS NOT NULL THEN d.sign * coalesce(d.other_costs, 0) ELSE 0 END) <> 0
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ON CONSTRAINT profit_month_totals_key DO UPDATE SET n = t.n + excluded.n, n_priced = t.n_priced + excluded.n_priced,
    n_received = t.n_received + excluded.n_received, loaded_tons = t.loaded_tons + excluded.loaded_tons,
    received_tons = t.received_tons + excluded.received_tons, accepted_tons = t.accepted_tons + excluded.accepted_tons,
    shortage_tons = t.shortage_tons + excluded.shortage_tons, deduction_tons = t.deduction_tons + excluded.deduction_tons,
    revenue = t.revenue + excluded.revenue, buying_cost = t.buying_cost + excluded.buying_cost,
    haulage = t.haulage + excluded.haulage, other_costs = t.other_costs + excluded.other_costs;
END $$;
