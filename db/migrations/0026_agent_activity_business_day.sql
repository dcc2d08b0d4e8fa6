-- An agent with no counted delivery or payout yet shows the day it was added as its last
-- activity (Agent Balances, its CSV, their order). That day was the UTC day of created_at, so an
-- agent added in the first hour of a Lagos day showed the day before, while a payout's balance
-- row (made in app code) used the business day. Both now use the business day: created_at in the
-- business time zone, which the app names in pks.time_zone on every connection (APP_TIME_ZONE;
-- db/client.server.ts), with the app's own default when a session has not set it.
CREATE OR REPLACE FUNCTION "pks_business_date"(t timestamptz) RETURNS date LANGUAGE sql STABLE AS $$
  SELECT (t at time zone coalesce(nullif(current_setting('pks.time_zone', true), ''), 'Africa/Lagos'))::date
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "pks_agent_last_activity"(a_id integer) RETURNS date LANGUAGE sql STABLE AS $$
  SELECT coalesce(
    greatest(
      (SELECT max(d.date) FROM deliveries d WHERE d.agent_id = a_id AND d.status IN ('confirmed', 'invoiced')),
      (SELECT max(p.payout_date) FROM agent_payouts p WHERE p.agent_id = a_id)),
    (SELECT pks_business_date(a.created_at) FROM agents a WHERE a.id = a_id),
    pks_business_date(now()))
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "pks_agent_balance_new_agent_trigger"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO agent_balances (agent_id, last_activity) VALUES (NEW.id, pks_business_date(NEW.created_at)) ON CONFLICT (agent_id) DO NOTHING;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- The rows already made that way: agents with nothing counted yet (one row per agent).
UPDATE "agent_balances" b SET "last_activity" = pks_business_date(a.created_at)
FROM "agents" a
WHERE a.id = b.agent_id AND b.n_deliveries + b.n_payouts = 0 AND b.last_activity <> pks_business_date(a.created_at);
