CREATE OR REPLACE FUNCTION "pks_agent_balance_payout_trigger"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO agent_balances AS b (agent_id, paid, n_payouts, last_activity) VALUES (NEW.agent_id, NEW.amount, 1, NEW.payout_date)
  ON CONFLICT (agent_id) DO UPDATE SET paid = b.paid + excluded.paid, n_payouts = b.n_payouts + 1,
    last_activity = CASE WHEN b.n_deliveries + b.n_payouts = 0 THEN excluded.last_activity
      ELSE greatest(b.last_activity, excluded.last_activity) END;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "agent_payouts_balance" AFTER INSERT ON "agent_payouts" FOR EACH ROW EXECUTE FUNCTION pks_agent_balance_payout_trigger();
