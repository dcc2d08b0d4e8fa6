CREATE OR REPLACE FUNCTION "pks_agent_balance_new_agent_trigger"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO agent_balances (agent_id, last_activity) VALUES (NEW.id, pks_business_date(NEW.created_at)) ON CONFLICT (agent_id) DO NOTHING;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "agents_balance_row" AFTER INSERT ON "agents" FOR EACH ROW EXECUTE FUNCTION pks_agent_balance_new_agent_trigger();
