-- Hand-written: the profit check's trigger names "tons" in its UPDATE OF list, and PostgreSQL
-- does not change a column's type under such a trigger. It is dropped here and created again
-- below, from db/functions/pks_invoice_profit_matches.sql, with the new weight columns.
DROP TRIGGER IF EXISTS "deliveries_invoice_profit_matches" ON "deliveries";
--> statement-breakpoint
CREATE TABLE "attachments" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "attachments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"content_type" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	"size_bytes" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid NOT NULL,
	CONSTRAINT "attachments_type_check" CHECK ("attachments"."content_type" in ('image/jpeg','image/png','image/webp')),
	CONSTRAINT "attachments_size_check" CHECK ("attachments"."size_bytes" = octet_length("attachments"."bytes") and "attachments"."size_bytes" between 1 and 2097152)
);
--> statement-breakpoint
CREATE TABLE "delivery_tickets" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "delivery_tickets_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"delivery_id" integer NOT NULL,
	"kind" text NOT NULL,
	"ticket_no" text NOT NULL,
	"weighbridge" text NOT NULL,
	"truck_id" integer NOT NULL,
	"gross_kg" integer NOT NULL,
	"tare_kg" integer NOT NULL,
	"net_kg" integer GENERATED ALWAYS AS (gross_kg - tare_kg) STORED NOT NULL,
	"weighed_at" timestamp with time zone,
	"moisture" numeric(5, 2),
	"photo_id" integer,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "delivery_tickets_kind_check" CHECK ("delivery_tickets"."kind" in ('loading','received')),
	CONSTRAINT "delivery_tickets_weights" CHECK ("delivery_tickets"."tare_kg" >= 0 and "delivery_tickets"."gross_kg" > "delivery_tickets"."tare_kg" and "delivery_tickets"."gross_kg" <= 200000),
	CONSTRAINT "delivery_tickets_moisture" CHECK ("delivery_tickets"."moisture" is null or ("delivery_tickets"."kind" = 'received' and "delivery_tickets"."moisture" between 0 and 100))
);
--> statement-breakpoint
ALTER TABLE "deliveries" ALTER COLUMN "tons" SET DATA TYPE numeric(11, 3);--> statement-breakpoint
ALTER TABLE "invoice_lines" ALTER COLUMN "tons" SET DATA TYPE numeric(11, 3);--> statement-breakpoint
ALTER TABLE "invoice_lines" ALTER COLUMN "amount" SET DATA TYPE numeric(17, 5);--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "pay_basis" text DEFAULT 'loaded' NOT NULL;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "requires_received_ticket" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "received_tons" numeric(11, 3);--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "quality_rule_id" integer;--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "quality_deduction_tons" numeric(11, 3);--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "pay_basis" text DEFAULT 'loaded' NOT NULL;--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "accepted_tons" numeric(11, 3) GENERATED ALWAYS AS (received_tons - coalesce(quality_deduction_tons, 0)) STORED;--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "invoiced_tons" numeric(11, 3) GENERATED ALWAYS AS (coalesce(received_tons - coalesce(quality_deduction_tons, 0), tons)) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "paid_tons" numeric(11, 3) GENERATED ALWAYS AS (case pay_basis when 'received' then coalesce(received_tons, tons) when 'accepted' then coalesce(received_tons - coalesce(quality_deduction_tons, 0), tons) else tons end) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD COLUMN "received_tons" numeric(11, 3);--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD COLUMN "moisture" numeric(5, 2);--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD COLUMN "quality_deduction_tons" numeric(11, 3);--> statement-breakpoint
ALTER TABLE "attachments" ADD CONSTRAINT "attachments_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delivery_tickets" ADD CONSTRAINT "delivery_tickets_delivery_id_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delivery_tickets" ADD CONSTRAINT "delivery_tickets_truck_id_trucks_id_fk" FOREIGN KEY ("truck_id") REFERENCES "public"."trucks"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delivery_tickets" ADD CONSTRAINT "delivery_tickets_photo_id_attachments_id_fk" FOREIGN KEY ("photo_id") REFERENCES "public"."attachments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delivery_tickets" ADD CONSTRAINT "delivery_tickets_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "delivery_tickets_delivery_kind_unique" ON "delivery_tickets" USING btree ("delivery_id","kind");--> statement-breakpoint
CREATE UNIQUE INDEX "delivery_tickets_number_unique" ON "delivery_tickets" USING btree ("weighbridge","ticket_no");--> statement-breakpoint
CREATE INDEX "delivery_tickets_truck_idx" ON "delivery_tickets" USING btree ("truck_id");--> statement-breakpoint
CREATE INDEX "delivery_tickets_photo_idx" ON "delivery_tickets" USING btree ("photo_id");--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_quality_rule_id_client_quality_rules_id_fk" FOREIGN KEY ("quality_rule_id") REFERENCES "public"."client_quality_rules"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agents" ADD CONSTRAINT "agents_pay_basis_check" CHECK ("agents"."pay_basis" in ('loaded','received','accepted'));--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_pay_basis_check" CHECK ("deliveries"."pay_basis" in ('loaded','received','accepted'));--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_received_weights" CHECK ("deliveries"."received_tons" > 0 or ("deliveries"."received_tons" is null and "deliveries"."quality_deduction_tons" is null and "deliveries"."quality_rule_id" is null));--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_deduction_range" CHECK ("deliveries"."quality_deduction_tons" is null or ("deliveries"."quality_deduction_tons" >= 0 and "deliveries"."quality_deduction_tons" <= "deliveries"."received_tons"));
--> statement-breakpoint
-- Hand-written, not generated by drizzle-kit: every figure that was tons x rate now takes the
-- invoiced tons for revenue and the paid tons for what the agent earns and the buying cost
-- (docs/decisions/1220), as db/functions/ says it.
CREATE OR REPLACE FUNCTION "pks_agent_balance_delivery_trigger"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- An agent earns on the delivery's paid tons (docs/decisions/1220).
  -- Invoicing (confirmed -> invoiced) and voiding (back to confirmed) change nothing an agent is
  -- owed: they must not touch, and so lock, the agent's balance row, or a delivery recorded for
  -- that agent would wait for the whole invoice's transaction.
  IF TG_OP = 'UPDATE' AND (OLD.agent_id, OLD.status IN ('confirmed', 'invoiced'), OLD.date, OLD.paid_tons, OLD.buying_rate, OLD.offloading_cost, OLD.mobilization_payment)
      IS NOT DISTINCT FROM (NEW.agent_id, NEW.status IN ('confirmed', 'invoiced'), NEW.date, NEW.paid_tons, NEW.buying_rate, NEW.offloading_cost, NEW.mobilization_payment) THEN
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.status IN ('confirmed', 'invoiced') THEN
    UPDATE agent_balances SET
      earned = earned - round(OLD.paid_tons * coalesce(OLD.buying_rate, 0) - coalesce(OLD.offloading_cost, 0) - coalesce(OLD.mobilization_payment, 0), 2),
      n_deliveries = n_deliveries - 1
    WHERE agent_id = OLD.agent_id;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') AND NEW.status IN ('confirmed', 'invoiced') THEN
    INSERT INTO agent_balances AS b (agent_id, earned, n_deliveries, last_activity)
    VALUES (NEW.agent_id, round(NEW.paid_tons * coalesce(NEW.buying_rate, 0) - coalesce(NEW.offloading_cost, 0) - coalesce(NEW.mobilization_payment, 0), 2),
      1, NEW.date)
    ON CONFLICT (agent_id) DO UPDATE SET earned = b.earned + excluded.earned, n_deliveries = b.n_deliveries + 1,
      last_activity = CASE WHEN b.n_deliveries + b.n_payouts = 0 THEN excluded.last_activity
        ELSE greatest(b.last_activity, excluded.last_activity) END;
  END IF;
  -- A delivery that left an agent, or moved back in time, may have been its latest activity.
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE agent_balances SET last_activity = pks_agent_last_activity(OLD.agent_id) WHERE agent_id = OLD.agent_id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "deliveries_agent_balance" AFTER INSERT OR UPDATE OR DELETE ON "deliveries" FOR EACH ROW EXECUTE FUNCTION pks_agent_balance_delivery_trigger();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "pks_deliveries_keep_invoiced"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    RAISE EXCEPTION 'deliveries keeps its invoiced deliveries: TRUNCATE is not allowed' USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'delivery % is on an invoice and is never removed', OLD.id USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF (NEW.id, NEW.tons, NEW.received_tons, NEW.quality_deduction_tons, NEW.quality_rule_id, NEW.pay_basis,
      NEW.buying_rate, NEW.selling_rate, NEW.client_id)
     IS DISTINCT FROM (OLD.id, OLD.tons, OLD.received_tons, OLD.quality_deduction_tons, OLD.quality_rule_id, OLD.pay_basis,
      OLD.buying_rate, OLD.selling_rate, OLD.client_id) THEN
    RAISE EXCEPTION 'delivery % is on an invoice: its weights, rates and client never change', OLD.id
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF NEW.invoice_id IS DISTINCT FROM OLD.invoice_id
     AND (NEW.invoice_id IS NOT NULL
          OR NOT EXISTS (SELECT 1 FROM invoices WHERE id = OLD.invoice_id AND payment_status = 'void')) THEN
    RAISE EXCEPTION 'delivery % leaves its invoice only when the invoice is void', OLD.id
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF NEW.invoice_id IS NOT NULL AND NEW.status <> 'invoiced' THEN
    RAISE EXCEPTION 'delivery % is on an invoice: its status stays invoiced', OLD.id USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "deliveries_keep_invoiced" BEFORE UPDATE OR DELETE ON "deliveries" FOR EACH ROW
  WHEN (OLD.invoice_id IS NOT NULL) EXECUTE FUNCTION pks_deliveries_keep_invoiced();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "deliveries_no_truncate" BEFORE TRUNCATE ON "deliveries" FOR EACH STATEMENT EXECUTE FUNCTION pks_deliveries_keep_invoiced();
--> statement-breakpoint
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
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "pks_invoice_profit_of"(inv integer) RETURNS numeric LANGUAGE sql STABLE AS $$
  SELECT round(coalesce(sum(d.invoiced_tons * d.selling_rate), 0)
    - coalesce(sum(d.paid_tons * coalesce(d.buying_rate, 0) + coalesce(d.logistics_cost, 0) + coalesce(d.other_costs, 0)), 0), 2)
  FROM deliveries d WHERE d.invoice_id = inv
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "pks_invoice_profit_matches"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  inv integer;
  kept record;
  recount numeric;
BEGIN
  IF TG_TABLE_NAME = 'invoices' THEN
    inv := NEW.id;
  ELSE
    inv := NEW.invoice_id;
  END IF;
  IF inv IS NULL THEN
    RETURN NULL;
  END IF;
  SELECT i.invoice_no, i.profit, i.payment_status INTO kept FROM invoices i WHERE i.id = inv;
  IF kept.payment_status = 'void' THEN
    RETURN NULL;
  END IF;
  recount := pks_invoice_profit_of(inv);
  IF kept.profit IS DISTINCT FROM recount THEN
    RAISE EXCEPTION 'invoice % says profit %, but its deliveries come to %', kept.invoice_no, kept.profit, recount
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS "deliveries_invoice_profit_matches" ON "deliveries";
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "deliveries_invoice_profit_matches"
  AFTER UPDATE OF "tons", "received_tons", "quality_deduction_tons", "pay_basis", "buying_rate", "selling_rate",
    "logistics_cost", "other_costs" ON "deliveries"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION pks_invoice_profit_matches();
--> statement-breakpoint
DROP TRIGGER IF EXISTS "invoices_profit_matches" ON "invoices";
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "invoices_profit_matches" AFTER UPDATE OF "profit" ON "invoices"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION pks_invoice_profit_matches();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "pks_rebuild_agent_balances"() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM agent_balances;
  INSERT INTO agent_balances (agent_id, earned, paid, n_deliveries, n_payouts, last_activity)
  SELECT a.id,
    coalesce((SELECT sum(round(d.paid_tons * coalesce(d.buying_rate, 0) - coalesce(d.offloading_cost, 0) - coalesce(d.mobilization_payment, 0), 2))
      FROM deliveries d WHERE d.agent_id = a.id AND d.status IN ('confirmed', 'invoiced')), 0),
    coalesce((SELECT sum(p.amount) FROM agent_payouts p WHERE p.agent_id = a.id), 0),
    (SELECT count(*) FROM deliveries d WHERE d.agent_id = a.id AND d.status IN ('confirmed', 'invoiced')),
    (SELECT count(*) FROM agent_payouts p WHERE p.agent_id = a.id),
    pks_agent_last_activity(a.id)
  FROM agents a;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "pks_rebuild_invoice_totals"() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM delivery_day_totals;
  DELETE FROM delivery_month_totals;
  DELETE FROM invoice_status_totals;
  DELETE FROM payment_day_totals;
  INSERT INTO delivery_day_totals (day, n_all, n_confirmed, n_invoiced, n_eligible, tons, revenue, profit)
  SELECT date, count(*), count(*) FILTER (WHERE status = 'confirmed'), count(*) FILTER (WHERE status = 'invoiced'),
    count(*) FILTER (WHERE status = 'confirmed' AND client_id IS NOT NULL AND invoice_id IS NULL),
    coalesce(sum(invoiced_tons) FILTER (WHERE status IN ('confirmed', 'invoiced')), 0),
    coalesce(sum(invoiced_tons * selling_rate) FILTER (WHERE status IN ('confirmed', 'invoiced')), 0),
    coalesce(sum(invoiced_tons * selling_rate - (paid_tons * coalesce(buying_rate, 0) + coalesce(logistics_cost, 0) + coalesce(other_costs, 0)))
      FILTER (WHERE status IN ('confirmed', 'invoiced') AND selling_rate IS NOT NULL), 0)
  FROM deliveries GROUP BY date;
  INSERT INTO delivery_month_totals (month, n_all, n_confirmed, n_invoiced, n_eligible, tons, revenue, profit)
  SELECT date_trunc('month', day)::date, sum(n_all), sum(n_confirmed), sum(n_invoiced), sum(n_eligible), sum(tons), sum(revenue), sum(profit)
  FROM delivery_day_totals GROUP BY 1;
  INSERT INTO delivery_month_totals AS t (month, invoice_count, first_invoice_no, last_invoice_no)
  SELECT date_trunc('month', coalesce(l.date, d.date))::date, count(*), min(i.invoice_no::bigint), max(i.invoice_no::bigint)
  FROM invoices i
    LEFT JOIN invoice_lines l ON l.invoice_id = i.id AND l.delivery_id = i.delivery_id
    LEFT JOIN deliveries d ON d.id = i.delivery_id
  WHERE coalesce(l.date, d.date) IS NOT NULL
  GROUP BY 1
  ON CONFLICT (month) DO UPDATE SET invoice_count = excluded.invoice_count, first_invoice_no = excluded.first_invoice_no,
    last_invoice_no = excluded.last_invoice_no;
  INSERT INTO invoice_status_totals (payment_status, due_date, owed, n, amount, amount_paid, amount_credited)
  SELECT payment_status, expected_payment_date, amount_paid + amount_credited < amount, count(*), sum(amount), sum(amount_paid),
    sum(amount_credited)
  FROM invoices WHERE payment_status <> 'void' GROUP BY 1, 2, 3;
  INSERT INTO payment_day_totals (payment_date, client_id, n, amount, received)
  SELECT p.payment_date, i.client_id, count(*), sum(p.amount), count(*) FILTER (WHERE pks_payment_is_received(p)
    AND NOT EXISTS (SELECT 1 FROM payments r WHERE r.reverses_payment_id = p.id))
  FROM payments p JOIN invoices i ON i.id = p.invoice_id GROUP BY 1, 2;
  INSERT INTO invoice_counter (id, last_no) SELECT 1, coalesce(max(invoice_no::bigint), 126) FROM invoices
  ON CONFLICT (id) DO UPDATE SET last_no = greatest(invoice_counter.last_no, excluded.last_no);
  INSERT INTO credit_note_counter (id, last_no) SELECT 1, coalesce(max(substr(credit_note_no, 4)::bigint), 0) FROM credit_notes
  ON CONFLICT (id) DO UPDATE SET last_no = greatest(credit_note_counter.last_no, excluded.last_no);
END $$;
