CREATE OR REPLACE FUNCTION "pks_delivery_totals_apply"(olds deliveries[], news deliveries[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF cardinality(olds) = 0 AND cardinality(news) = 0 THEN
    RETURN;
  END IF;
  INSERT INTO delivery_month_totals AS t (month, n_all, n_confirmed, n_invoiced, n_eligible, tons, revenue, profit)
  SELECT date_trunc('month', x.day)::date, sum(x.n_all), sum(x.n_confirmed), sum(x.n_invoiced), sum(x.n_eligible),
    sum(x.tons), sum(x.revenue), sum(x.profit)
  FROM pks_delivery_totals_delta(olds, news) x
  GROUP BY 1
  -- Every month with a changed day, even when its own sums net to nothing (a delivery moved
  -- within the month): its row is still written, and so locked, before the days, or two writers
  -- could take one month's day rows in opposite orders and deadlock.
  HAVING bool_or(x.n_all <> 0 OR x.n_confirmed <> 0 OR x.n_invoiced <> 0 OR x.n_eligible <> 0
    OR x.tons <> 0 OR x.revenue <> 0 OR x.profit <> 0)
  ORDER BY 1
  ON CONFLICT (month) DO UPDATE SET n_all = t.n_all + excluded.n_all, n_confirmed = t.n_confirmed + excluded.n_confirmed,
    n_invoiced = t.n_invoiced + excluded.n_invoiced, n_eligible = t.n_eligible + excluded.n_eligible,
    tons = t.tons + excluded.tons, revenue = t.revenue + excluded.revenue, profit = t.profit + excluded.profit;
  INSERT INTO delivery_day_totals AS t (day, n_all, n_confirmed, n_invoiced, n_eligible, tons, revenue, profit)
  SELECT x.day, x.n_all, x.n_confirmed, x.n_invoiced, x.n_eligible, x.tons, x.revenue, x.profit
  FROM pks_delivery_totals_delta(olds, news) x
  WHERE x.n_all <> 0 OR x.n_confirmed <> 0 OR x.n_invoiced <> 0 OR x.n_eligible <> 0
    OR x.tons <> 0 OR x.revenue <> 0 OR x.profit <> 0
  ORDER BY x.day
  ON CONFLICT (day) DO UPDATE SET n_all = t.n_all + excluded.n_all, n_confirmed = t.n_confirmed + excluded.n_confirmed,
    n_invoiced = t.n_invoiced + excluded.n_invoiced, n_eligible = t.n_eligible + excluded.n_eligible,
    tons = t.tons + excluded.tons, revenue = t.revenue + excluded.revenue, profit = t.profit + excluded.profit;
END $$;
