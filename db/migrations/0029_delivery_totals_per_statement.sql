-- The delivery totals (decision 0500, addendum of stop 33) were kept by a row trigger: a
-- statement that changes many deliveries of one month updated that month's row twice per
-- delivery in one transaction (a month's invoice moves thousands of deliveries to invoiced, a
-- void moves them back). Each update of a row already updated in the same transaction walks the
-- versions before it, so such a statement cost the square of its rows: 8,000 deliveries took
-- over a minute, past any statement timeout. One trigger per statement now adds up the
-- statement's rows (its transition tables) and writes each month row and each day row once:
-- months before days, each in date order, as the row trigger did for one row. Days whose sums
-- do not change are not written (nor locked), as the row trigger skipped rows whose counted
-- columns did not change; a month is written whenever one of its days is. The sums are the row
-- trigger's, row for row.
-- What a statement's rows add to each day (old rows taken away, new rows added).
CREATE FUNCTION "pks_delivery_totals_delta"(olds deliveries[], news deliveries[])
RETURNS TABLE (day date, n_all bigint, n_confirmed bigint, n_invoiced bigint, n_eligible bigint, tons numeric, revenue numeric, profit numeric)
LANGUAGE sql IMMUTABLE AS $$
  SELECT d.date, sum(d.sign),
    sum(CASE WHEN d.status = 'confirmed' THEN d.sign ELSE 0 END),
    sum(CASE WHEN d.status = 'invoiced' THEN d.sign ELSE 0 END),
    sum(CASE WHEN d.status = 'confirmed' AND d.client_id IS NOT NULL AND d.invoice_id IS NULL THEN d.sign ELSE 0 END),
    sum(CASE WHEN d.status IN ('confirmed', 'invoiced') THEN d.sign * d.tons ELSE 0 END),
    sum(CASE WHEN d.status IN ('confirmed', 'invoiced') THEN d.sign * coalesce(d.tons * d.selling_rate, 0) ELSE 0 END),
    sum(CASE WHEN d.status IN ('confirmed', 'invoiced') AND d.selling_rate IS NOT NULL
      THEN d.sign * (d.tons * d.selling_rate - (d.tons * coalesce(d.buying_rate, 0) + coalesce(d.logistics_cost, 0) + coalesce(d.other_costs, 0)))
      ELSE 0 END)
  FROM (SELECT o.*, -1 AS sign FROM unnest(olds) o UNION ALL SELECT n.*, 1 AS sign FROM unnest(news) n) d
  GROUP BY d.date
$$;
--> statement-breakpoint
-- Month rows first, then day rows, each in date order: one lock order for every writer.
CREATE FUNCTION "pks_delivery_totals_apply"(olds deliveries[], news deliveries[]) RETURNS void LANGUAGE plpgsql AS $$
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
--> statement-breakpoint
CREATE FUNCTION "pks_delivery_totals_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pks_delivery_totals_apply('{}', array(SELECT n::deliveries FROM new_rows n));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "pks_delivery_totals_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pks_delivery_totals_apply(array(SELECT o::deliveries FROM old_rows o), array(SELECT n::deliveries FROM new_rows n));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "pks_delivery_totals_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pks_delivery_totals_apply(array(SELECT o::deliveries FROM old_rows o), '{}');
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER "deliveries_totals" ON "deliveries";
--> statement-breakpoint
DROP FUNCTION "pks_delivery_totals_trigger"();
--> statement-breakpoint
DROP FUNCTION "pks_delivery_totals_add"(date, text, integer, integer, numeric, numeric, numeric, numeric, numeric, integer);
--> statement-breakpoint
CREATE TRIGGER "deliveries_totals_inserted" AFTER INSERT ON "deliveries" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION pks_delivery_totals_inserted();
--> statement-breakpoint
CREATE TRIGGER "deliveries_totals_updated" AFTER UPDATE ON "deliveries" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION pks_delivery_totals_updated();
--> statement-breakpoint
CREATE TRIGGER "deliveries_totals_deleted" AFTER DELETE ON "deliveries" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION pks_delivery_totals_deleted();
