CREATE TABLE "agent_balances" (
	"agent_id" integer PRIMARY KEY NOT NULL,
	"earned" numeric DEFAULT '0' NOT NULL,
	"paid" numeric DEFAULT '0' NOT NULL,
	"n_deliveries" integer DEFAULT 0 NOT NULL,
	"n_payouts" integer DEFAULT 0 NOT NULL,
	"last_activity" date NOT NULL
);
--> statement-breakpoint
CREATE TABLE "agent_payouts" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "agent_payouts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"agent_id" integer NOT NULL,
	"amount" numeric(12, 2) NOT NULL,
	"payout_date" date NOT NULL,
	"method" text NOT NULL,
	"reference" text,
	"note" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "agent_payouts_amount_positive" CHECK ("agent_payouts"."amount" > 0),
	CONSTRAINT "agent_payouts_method_check" CHECK ("agent_payouts"."method" in ('cash','bank_transfer','cheque','other'))
);
--> statement-breakpoint
DROP INDEX "deliveries_agent_idx";--> statement-breakpoint
ALTER TABLE "agent_balances" ADD CONSTRAINT "agent_balances_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_payouts" ADD CONSTRAINT "agent_payouts_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_payouts" ADD CONSTRAINT "agent_payouts_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "agent_balances_activity_idx" ON "agent_balances" USING btree ("last_activity","agent_id");--> statement-breakpoint
CREATE INDEX "agent_payouts_agent_date_idx" ON "agent_payouts" USING btree ("agent_id","payout_date","id");--> statement-breakpoint
CREATE INDEX "deliveries_agent_date_idx" ON "deliveries" USING btree ("agent_id","date","id");--> statement-breakpoint
-- Agent payouts are money: never rewritten or removed (docs/decisions/0980). Row triggers refuse
-- UPDATE and DELETE; a statement trigger refuses TRUNCATE.
CREATE FUNCTION "pks_agent_payouts_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'agent_payouts is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
END $$;
--> statement-breakpoint
CREATE TRIGGER "agent_payouts_no_update_delete" BEFORE UPDATE OR DELETE ON "agent_payouts" FOR EACH ROW EXECUTE FUNCTION pks_agent_payouts_append_only();
--> statement-breakpoint
CREATE TRIGGER "agent_payouts_no_truncate" BEFORE TRUNCATE ON "agent_payouts" FOR EACH STATEMENT EXECUTE FUNCTION pks_agent_payouts_append_only();
--> statement-breakpoint
-- The latest activity of one agent: its latest counted delivery or payout, else the day it was
-- added. Two index probes (deliveries_agent_date_idx, agent_payouts_agent_date_idx).
CREATE FUNCTION "pks_agent_last_activity"(a_id integer) RETURNS date LANGUAGE sql STABLE AS $$
  SELECT coalesce(
    greatest(
      (SELECT max(d.date) FROM deliveries d WHERE d.agent_id = a_id AND d.status IN ('confirmed', 'invoiced')),
      (SELECT max(p.payout_date) FROM agent_payouts p WHERE p.agent_id = a_id)),
    (SELECT a.created_at::date FROM agents a WHERE a.id = a_id),
    current_date)
$$;
--> statement-breakpoint
CREATE FUNCTION "pks_agent_balance_new_agent_trigger"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO agent_balances (agent_id, last_activity) VALUES (NEW.id, NEW.created_at::date) ON CONFLICT (agent_id) DO NOTHING;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "agents_balance_row" AFTER INSERT ON "agents" FOR EACH ROW EXECUTE FUNCTION pks_agent_balance_new_agent_trigger();
--> statement-breakpoint
-- Net payable of a counted delivery, to the kobo as the deliveries list shows it
-- (app/rules/deliveries.server.ts netPaymentSql): tons x buying rate - offloading cost -
-- mobilization advance; drafts earn nothing yet.
CREATE FUNCTION "pks_agent_balance_delivery_trigger"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Invoicing (confirmed -> invoiced) and voiding (back to confirmed) change nothing an agent is
  -- owed: they must not touch, and so lock, the agent's balance row, or a delivery recorded for
  -- that agent would wait for the whole invoice's transaction.
  IF TG_OP = 'UPDATE' AND (OLD.agent_id, OLD.status IN ('confirmed', 'invoiced'), OLD.date, OLD.tons, OLD.buying_rate, OLD.offloading_cost, OLD.mobilization_payment)
      IS NOT DISTINCT FROM (NEW.agent_id, NEW.status IN ('confirmed', 'invoiced'), NEW.date, NEW.tons, NEW.buying_rate, NEW.offloading_cost, NEW.mobilization_payment) THEN
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.status IN ('confirmed', 'invoiced') THEN
    UPDATE agent_balances SET
      earned = earned - round(OLD.tons * coalesce(OLD.buying_rate, 0) - coalesce(OLD.offloading_cost, 0) - coalesce(OLD.mobilization_payment, 0), 2),
      n_deliveries = n_deliveries - 1
    WHERE agent_id = OLD.agent_id;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') AND NEW.status IN ('confirmed', 'invoiced') THEN
    INSERT INTO agent_balances AS b (agent_id, earned, n_deliveries, last_activity)
    VALUES (NEW.agent_id, round(NEW.tons * coalesce(NEW.buying_rate, 0) - coalesce(NEW.offloading_cost, 0) - coalesce(NEW.mobilization_payment, 0), 2),
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
CREATE TRIGGER "deliveries_agent_balance" AFTER INSERT OR UPDATE OR DELETE ON "deliveries" FOR EACH ROW EXECUTE FUNCTION pks_agent_balance_delivery_trigger();
--> statement-breakpoint
CREATE FUNCTION "pks_agent_balance_payout_trigger"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO agent_balances AS b (agent_id, paid, n_payouts, last_activity) VALUES (NEW.agent_id, NEW.amount, 1, NEW.payout_date)
  ON CONFLICT (agent_id) DO UPDATE SET paid = b.paid + excluded.paid, n_payouts = b.n_payouts + 1,
    last_activity = CASE WHEN b.n_deliveries + b.n_payouts = 0 THEN excluded.last_activity
      ELSE greatest(b.last_activity, excluded.last_activity) END;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "agent_payouts_balance" AFTER INSERT ON "agent_payouts" FOR EACH ROW EXECUTE FUNCTION pks_agent_balance_payout_trigger();
--> statement-breakpoint
-- Recounts every agent's balance from the tables (existing data here; bulk loads that insert
-- with triggers off call pks_rebuild_totals, which now ends with this).
CREATE FUNCTION "pks_rebuild_agent_balances"() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM agent_balances;
  INSERT INTO agent_balances (agent_id, earned, paid, n_deliveries, n_payouts, last_activity)
  SELECT a.id,
    coalesce((SELECT sum(round(d.tons * coalesce(d.buying_rate, 0) - coalesce(d.offloading_cost, 0) - coalesce(d.mobilization_payment, 0), 2))
      FROM deliveries d WHERE d.agent_id = a.id AND d.status IN ('confirmed', 'invoiced')), 0),
    coalesce((SELECT sum(p.amount) FROM agent_payouts p WHERE p.agent_id = a.id), 0),
    (SELECT count(*) FROM deliveries d WHERE d.agent_id = a.id AND d.status IN ('confirmed', 'invoiced')),
    (SELECT count(*) FROM agent_payouts p WHERE p.agent_id = a.id),
    pks_agent_last_activity(a.id)
  FROM agents a;
END $$;
--> statement-breakpoint
-- The totals of migrations 0004 and 0007 keep their body under a new name; pks_rebuild_totals
-- rebuilds those and the agent balances.
ALTER FUNCTION "pks_rebuild_totals"() RENAME TO "pks_rebuild_invoice_totals";
--> statement-breakpoint
CREATE FUNCTION "pks_rebuild_totals"() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pks_rebuild_invoice_totals();
  PERFORM pks_rebuild_agent_balances();
END $$;
--> statement-breakpoint
SELECT pks_rebuild_agent_balances();
