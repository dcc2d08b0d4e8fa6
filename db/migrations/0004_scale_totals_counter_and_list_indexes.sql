CREATE TABLE "delivery_day_totals" (
	"day" date PRIMARY KEY NOT NULL,
	"n_all" integer DEFAULT 0 NOT NULL,
	"n_confirmed" integer DEFAULT 0 NOT NULL,
	"n_invoiced" integer DEFAULT 0 NOT NULL,
	"n_eligible" integer DEFAULT 0 NOT NULL,
	"tons" numeric DEFAULT '0' NOT NULL,
	"revenue" numeric DEFAULT '0' NOT NULL,
	"profit" numeric DEFAULT '0' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "delivery_month_totals" (
	"month" date PRIMARY KEY NOT NULL,
	"n_all" integer DEFAULT 0 NOT NULL,
	"n_confirmed" integer DEFAULT 0 NOT NULL,
	"n_invoiced" integer DEFAULT 0 NOT NULL,
	"n_eligible" integer DEFAULT 0 NOT NULL,
	"tons" numeric DEFAULT '0' NOT NULL,
	"revenue" numeric DEFAULT '0' NOT NULL,
	"profit" numeric DEFAULT '0' NOT NULL,
	"invoice_count" integer DEFAULT 0 NOT NULL,
	"first_invoice_no" bigint,
	"last_invoice_no" bigint
);
--> statement-breakpoint
CREATE TABLE "invoice_counter" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"last_no" bigint NOT NULL,
	CONSTRAINT "invoice_counter_single_row" CHECK ("invoice_counter"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "invoice_status_totals" (
	"payment_status" text NOT NULL,
	"due_date" date NOT NULL,
	"owed" boolean NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	"amount" numeric DEFAULT '0' NOT NULL,
	"amount_paid" numeric DEFAULT '0' NOT NULL,
	CONSTRAINT "invoice_status_totals_payment_status_due_date_owed_pk" PRIMARY KEY("payment_status","due_date","owed")
);
--> statement-breakpoint
CREATE TABLE "payment_day_totals" (
	"payment_date" date NOT NULL,
	"client_id" integer NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	"amount" numeric DEFAULT '0' NOT NULL,
	CONSTRAINT "payment_day_totals_payment_date_client_id_pk" PRIMARY KEY("payment_date","client_id")
);
--> statement-breakpoint
DROP INDEX "invoices_client_idx";--> statement-breakpoint
CREATE INDEX "delivery_month_totals_eligible_idx" ON "delivery_month_totals" USING btree ("month") WHERE "delivery_month_totals"."n_eligible" > 0;--> statement-breakpoint
CREATE INDEX "deliveries_invoiceable_idx" ON "deliveries" USING btree ("date" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "deliveries"."status" = 'confirmed' and "deliveries"."invoice_id" is null;--> statement-breakpoint
CREATE INDEX "invoices_client_id_idx" ON "invoices" USING btree ("client_id","id");--> statement-breakpoint
CREATE INDEX "invoices_status_id_idx" ON "invoices" USING btree ("payment_status","id");--> statement-breakpoint
CREATE INDEX "invoices_owed_id_idx" ON "invoices" USING btree ("id") WHERE "invoices"."amount_paid" < "invoices"."amount";--> statement-breakpoint
CREATE INDEX "invoices_owed_due_idx" ON "invoices" USING btree ("expected_payment_date","id") WHERE "invoices"."amount_paid" < "invoices"."amount";--> statement-breakpoint
-- Totals kept by triggers in the writing transaction (docs/decisions/0500). Month rows are
-- always changed before day rows so two writers never wait on each other in a circle.
CREATE FUNCTION "pks_delivery_totals_add"(d_date date, d_status text, d_client integer, d_invoice integer,
  d_tons numeric, d_selling numeric, d_buying numeric, d_logistics numeric, d_other numeric, sign integer)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  counted boolean := d_status IN ('confirmed', 'invoiced');
  v_confirmed integer := CASE WHEN d_status = 'confirmed' THEN sign ELSE 0 END;
  v_invoiced integer := CASE WHEN d_status = 'invoiced' THEN sign ELSE 0 END;
  v_eligible integer := CASE WHEN d_status = 'confirmed' AND d_client IS NOT NULL AND d_invoice IS NULL THEN sign ELSE 0 END;
  v_tons numeric := CASE WHEN counted THEN sign * d_tons ELSE 0 END;
  v_revenue numeric := CASE WHEN counted THEN sign * coalesce(d_tons * d_selling, 0) ELSE 0 END;
  v_profit numeric := CASE WHEN counted AND d_selling IS NOT NULL
    THEN sign * (d_tons * d_selling - (d_tons * coalesce(d_buying, 0) + coalesce(d_logistics, 0) + coalesce(d_other, 0))) ELSE 0 END;
BEGIN
  INSERT INTO delivery_month_totals AS t (month, n_all, n_confirmed, n_invoiced, n_eligible, tons, revenue, profit)
  VALUES (date_trunc('month', d_date)::date, sign, v_confirmed, v_invoiced, v_eligible, v_tons, v_revenue, v_profit)
  ON CONFLICT (month) DO UPDATE SET n_all = t.n_all + excluded.n_all, n_confirmed = t.n_confirmed + excluded.n_confirmed,
    n_invoiced = t.n_invoiced + excluded.n_invoiced, n_eligible = t.n_eligible + excluded.n_eligible,
    tons = t.tons + excluded.tons, revenue = t.revenue + excluded.revenue, profit = t.profit + excluded.profit;
  INSERT INTO delivery_day_totals AS t (day, n_all, n_confirmed, n_invoiced, n_eligible, tons, revenue, profit)
  VALUES (d_date, sign, v_confirmed, v_invoiced, v_eligible, v_tons, v_revenue, v_profit)
  ON CONFLICT (day) DO UPDATE SET n_all = t.n_all + excluded.n_all, n_confirmed = t.n_confirmed + excluded.n_confirmed,
    n_invoiced = t.n_invoiced + excluded.n_invoiced, n_eligible = t.n_eligible + excluded.n_eligible,
    tons = t.tons + excluded.tons, revenue = t.revenue + excluded.revenue, profit = t.profit + excluded.profit;
END $$;
--> statement-breakpoint
CREATE FUNCTION "pks_delivery_totals_trigger"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND (OLD.date, OLD.status, OLD.client_id, OLD.invoice_id, OLD.tons, OLD.selling_rate, OLD.buying_rate, OLD.logistics_cost, OLD.other_costs)
      IS NOT DISTINCT FROM (NEW.date, NEW.status, NEW.client_id, NEW.invoice_id, NEW.tons, NEW.selling_rate, NEW.buying_rate, NEW.logistics_cost, NEW.other_costs) THEN
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM pks_delivery_totals_add(OLD.date, OLD.status, OLD.client_id, OLD.invoice_id, OLD.tons, OLD.selling_rate, OLD.buying_rate, OLD.logistics_cost, OLD.other_costs, -1);
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    PERFORM pks_delivery_totals_add(NEW.date, NEW.status, NEW.client_id, NEW.invoice_id, NEW.tons, NEW.selling_rate, NEW.buying_rate, NEW.logistics_cost, NEW.other_costs, 1);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "deliveries_totals" AFTER INSERT OR UPDATE OR DELETE ON "deliveries" FOR EACH ROW EXECUTE FUNCTION pks_delivery_totals_trigger();
--> statement-breakpoint
CREATE FUNCTION "pks_invoice_status_add"(i_status text, i_due date, i_amount numeric, i_paid numeric, sign integer)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO invoice_status_totals AS t (payment_status, due_date, owed, n, amount, amount_paid)
  VALUES (i_status, i_due, i_paid < i_amount, sign, sign * i_amount, sign * i_paid)
  ON CONFLICT (payment_status, due_date, owed) DO UPDATE SET n = t.n + excluded.n, amount = t.amount + excluded.amount,
    amount_paid = t.amount_paid + excluded.amount_paid;
END $$;
--> statement-breakpoint
CREATE FUNCTION "pks_invoice_totals_trigger"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND (OLD.payment_status, OLD.expected_payment_date, OLD.amount, OLD.amount_paid)
      IS NOT DISTINCT FROM (NEW.payment_status, NEW.expected_payment_date, NEW.amount, NEW.amount_paid) THEN
    RETURN NULL;
  END IF;
  -- Both status rows in one fixed order (by status name), whichever way the invoice moves.
  IF TG_OP = 'UPDATE' AND NEW.payment_status < OLD.payment_status THEN
    PERFORM pks_invoice_status_add(NEW.payment_status, NEW.expected_payment_date, NEW.amount, NEW.amount_paid, 1);
    PERFORM pks_invoice_status_add(OLD.payment_status, OLD.expected_payment_date, OLD.amount, OLD.amount_paid, -1);
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM pks_invoice_status_add(OLD.payment_status, OLD.expected_payment_date, OLD.amount, OLD.amount_paid, -1);
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    PERFORM pks_invoice_status_add(NEW.payment_status, NEW.expected_payment_date, NEW.amount, NEW.amount_paid, 1);
  END IF;
  IF TG_OP = 'INSERT' THEN
    INSERT INTO delivery_month_totals AS t (month, invoice_count, first_invoice_no, last_invoice_no)
    SELECT date_trunc('month', d.date)::date, 1, NEW.invoice_no::bigint, NEW.invoice_no::bigint FROM deliveries d WHERE d.id = NEW.delivery_id
    ON CONFLICT (month) DO UPDATE SET invoice_count = t.invoice_count + 1,
      first_invoice_no = least(t.first_invoice_no, excluded.first_invoice_no),
      last_invoice_no = greatest(t.last_invoice_no, excluded.last_invoice_no);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "invoices_totals" AFTER INSERT OR UPDATE OR DELETE ON "invoices" FOR EACH ROW EXECUTE FUNCTION pks_invoice_totals_trigger();
--> statement-breakpoint
CREATE FUNCTION "pks_payment_totals_trigger"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO payment_day_totals AS t (payment_date, client_id, n, amount)
    SELECT OLD.payment_date, i.client_id, -1, -OLD.amount FROM invoices i WHERE i.id = OLD.invoice_id
    ON CONFLICT (payment_date, client_id) DO UPDATE SET n = t.n + excluded.n, amount = t.amount + excluded.amount;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    INSERT INTO payment_day_totals AS t (payment_date, client_id, n, amount)
    SELECT NEW.payment_date, i.client_id, 1, NEW.amount FROM invoices i WHERE i.id = NEW.invoice_id
    ON CONFLICT (payment_date, client_id) DO UPDATE SET n = t.n + excluded.n, amount = t.amount + excluded.amount;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "payments_totals" AFTER INSERT OR UPDATE OR DELETE ON "payments" FOR EACH ROW EXECUTE FUNCTION pks_payment_totals_trigger();
--> statement-breakpoint
-- Recomputes every total from the tables: run once here for existing data, and by bulk loads
-- (bench seeding) that insert with triggers off.
CREATE FUNCTION "pks_rebuild_totals"() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM delivery_day_totals;
  DELETE FROM delivery_month_totals;
  DELETE FROM invoice_status_totals;
  DELETE FROM payment_day_totals;
  INSERT INTO delivery_day_totals (day, n_all, n_confirmed, n_invoiced, n_eligible, tons, revenue, profit)
  SELECT date, count(*), count(*) FILTER (WHERE status = 'confirmed'), count(*) FILTER (WHERE status = 'invoiced'),
    count(*) FILTER (WHERE status = 'confirmed' AND client_id IS NOT NULL AND invoice_id IS NULL),
    coalesce(sum(tons) FILTER (WHERE status IN ('confirmed', 'invoiced')), 0),
    coalesce(sum(tons * selling_rate) FILTER (WHERE status IN ('confirmed', 'invoiced')), 0),
    coalesce(sum(tons * selling_rate - (tons * coalesce(buying_rate, 0) + coalesce(logistics_cost, 0) + coalesce(other_costs, 0)))
      FILTER (WHERE status IN ('confirmed', 'invoiced') AND selling_rate IS NOT NULL), 0)
  FROM deliveries GROUP BY date;
  INSERT INTO delivery_month_totals (month, n_all, n_confirmed, n_invoiced, n_eligible, tons, revenue, profit)
  SELECT date_trunc('month', day)::date, sum(n_all), sum(n_confirmed), sum(n_invoiced), sum(n_eligible), sum(tons), sum(revenue), sum(profit)
  FROM delivery_day_totals GROUP BY 1;
  INSERT INTO delivery_month_totals AS t (month, invoice_count, first_invoice_no, last_invoice_no)
  SELECT date_trunc('month', d.date)::date, count(*), min(i.invoice_no::bigint), max(i.invoice_no::bigint)
  FROM invoices i JOIN deliveries d ON d.id = i.delivery_id GROUP BY 1
  ON CONFLICT (month) DO UPDATE SET invoice_count = excluded.invoice_count, first_invoice_no = excluded.first_invoice_no,
    last_invoice_no = excluded.last_invoice_no;
  INSERT INTO invoice_status_totals (payment_status, due_date, owed, n, amount, amount_paid)
  SELECT payment_status, expected_payment_date, amount_paid < amount, count(*), sum(amount), sum(amount_paid)
  FROM invoices GROUP BY 1, 2, 3;
  INSERT INTO payment_day_totals (payment_date, client_id, n, amount)
  SELECT p.payment_date, i.client_id, count(*), sum(p.amount) FROM payments p JOIN invoices i ON i.id = p.invoice_id GROUP BY 1, 2;
  INSERT INTO invoice_counter (id, last_no) SELECT 1, coalesce(max(invoice_no::bigint), 126) FROM invoices
  ON CONFLICT (id) DO UPDATE SET last_no = greatest(invoice_counter.last_no, excluded.last_no);
END $$;
--> statement-breakpoint
SELECT pks_rebuild_totals();
