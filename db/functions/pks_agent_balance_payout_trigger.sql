CREATE OR REPLACE FUNCTION "pks_agent_balance_payout_trigger"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Only an approved payout counts as paid (docs/decisions/1250): a pending one is counted when
  -- it is approved, a rejected one never.
  IF TG_OP = 'UPDATE' THEN
    IF OLD.status <> 'approved' AND NEW.status = 'approved' THEN
      UPDATE agent_balances SET paid = paid + NEW.amount WHERE agent_id = NEW.agent_id;
    END IF;
    RETURN NULL;
  END IF;
  INSERT INTO agent_balances AS b (agent_id, paid, n_payouts, last_activity)
  VALUES (NEW.agent_id, CASE WHEN NEW.status = 'approved' THEN NEW.amount ELSE 0 END, 1, NEW.payout_date)
  ON CONFLICT (agent_id) DO UPDATE SET paid = b.paid + excluded.paid, n_payouts = b.n_payouts + 1,
    last_activity = CASE WHEN b.n_deliveries + b.n_payouts = 0 THEN excluded.last_activity
      ELSE greatest(b.last_activity, excluded.last_activity) END;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "agent_payouts_balance" AFTER INSERT OR UPDATE OF "status" ON "agent_payouts" FOR EACH ROW EXECUTE FUNCTION pks_agent_balance_payout_trigger();
