CREATE OR REPLACE FUNCTION "pks_delivery_totals_delta"(olds deliveries[], news deliveries[])
RETURNS TABLE (day date, n_all bigint, n_confirmed bigint, n_invoiced bigint, n_eligible bigint, tons numeric, revenue numeric, profit numeric)
LANGUAGE sql IMMUTABLE AS $$
  SELECT d.date, sum(d.sign),
    sum(CASE WHEN d.status = 'confirmed' THEN d.sign ELSE 0 END),
    sum(CASE WHEN d.status = 'invoiced' THEN d.sign ELSE 0 END),
    sum(CASE WHEN d.status = 'confirmed' AND d.client_id IS NOT NULL AND d.invoice_id IS NULL THEN d.sign ELSE 0 END),
    sum(CASE WHEN d.status IN ('confirmed', 'invoiced') THEN d.sign * d.invoiced_tons ELSE 0 END),
    sum(CASE WHEN d.status IN ('confirmed', 'invoiced') THEN d.sign * coalesce(d.invoiced_tons * d.selling_rate, 0) ELSE 0 END),
    sum(CASE WHEN d.status IN ('confirmed', 'invoiced') AND d.selling_rate IS NOT NULL
      THEN d.sign * (d.invoiced_tons * d.selling_rate - (d.paid_tons * coalesce(d.buying_rate, 0) + coalesce(d.logistics_cost, 0) + coalesce(d.other_costs, 0)))
      ELSE 0 END)
  FROM (SELECT o.*, -1 AS sign FROM unnest(olds) o UNION ALL SELECT n.*, 1 AS sign FROM unnest(news) n) d
  GROUP BY d.date
$$;
