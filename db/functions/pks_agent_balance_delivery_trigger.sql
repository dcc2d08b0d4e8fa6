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
