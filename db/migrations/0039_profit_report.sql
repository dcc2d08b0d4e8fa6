CREATE TABLE "profit_month_totals" (
	"month" date NOT NULL,
	"kind" text NOT NULL,
	"agent_id" integer,
	"client_id" integer,
	"site" text,
	"n" integer DEFAULT 0 NOT NULL,
	"n_priced" integer DEFAULT 0 NOT NULL,
	"n_received" integer DEFAULT 0 NOT NULL,
	"loaded_tons" numeric DEFAULT '0' NOT NULL,
	"received_tons" numeric DEFAULT '0' NOT NULL,
	"accepted_tons" numeric DEFAULT '0' NOT NULL,
	"shortage_tons" numeric DEFAULT '0' NOT NULL,
	"deduction_tons" numeric DEFAULT '0' NOT NULL,
	"revenue" numeric DEFAULT '0' NOT NULL,
	"buying_cost" numeric DEFAULT '0' NOT NULL,
	"haulage" numeric DEFAULT '0' NOT NULL,
	"other_costs" numeric DEFAULT '0' NOT NULL,
	CONSTRAINT "profit_month_totals_key" UNIQUE NULLS NOT DISTINCT("month","kind","agent_id","client_id","site"),
	CONSTRAINT "profit_month_totals_kind" CHECK ("profit_month_totals"."kind" in ('agent','client','site')),
	CONSTRAINT "profit_month_totals_one_key" CHECK (("profit_month_totals"."kind" = 'agent' and "profit_month_totals"."agent_id" is not null and "profit_month_totals"."client_id" is null and "profit_month_totals"."site" is null)
        or ("profit_month_totals"."kind" = 'client' and "profit_month_totals"."agent_id" is null and "profit_month_totals"."site" is null)
        or ("profit_month_totals"."kind" = 'site' and "profit_month_totals"."site" is not null and "profit_month_totals"."agent_id" is null and "profit_month_totals"."client_id" is null))
);
--> statement-breakpoint
CREATE INDEX "deliveries_client_date_idx" ON "deliveries" USING btree ("client_id","date" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "deliveries_location_date_idx" ON "deliveries" USING btree ("location","date" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
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
--> statement-breakpoint
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
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "pks_rebuild_profit_totals"() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM profit_month_totals;
  INSERT INTO profit_month_totals (month, kind, agent_id, client_id, site, n, n_priced, n_received, loaded_tons,
    received_tons, accepted_tons, shortage_tons, deduction_tons, revenue, buying_cost, haulage, other_costs)
  SELECT * FROM pks_profit_totals_recount();
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "pks_rebuild_totals"() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pks_rebuild_invoice_totals();
  PERFORM pks_rebuild_invoice_status_rollup();
  PERFORM pks_rebuild_agent_balances();
  PERFORM pks_rebuild_client_owed();
  PERFORM pks_rebuild_tax_month_totals();
  PERFORM pks_rebuild_profit_totals();
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "pks_profit_totals_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pks_profit_totals_apply('{}', array(SELECT n::deliveries FROM new_rows n));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "deliveries_profit_totals_inserted" AFTER INSERT ON "deliveries" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION pks_profit_totals_inserted();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "pks_profit_totals_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pks_profit_totals_apply(array(SELECT o::deliveries FROM old_rows o), array(SELECT n::deliveries FROM new_rows n));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "deliveries_profit_totals_updated" AFTER UPDATE ON "deliveries" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION pks_profit_totals_updated();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "pks_profit_totals_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pks_profit_totals_apply(array(SELECT o::deliveries FROM old_rows o), '{}');
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "deliveries_profit_totals_deleted" AFTER DELETE ON "deliveries" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION pks_profit_totals_deleted();
--> statement-breakpoint
SELECT pks_rebuild_profit_totals();
