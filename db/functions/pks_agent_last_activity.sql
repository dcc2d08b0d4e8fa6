CREATE OR REPLACE FUNCTION "pks_agent_last_activity"(a_id integer) RETURNS date LANGUAGE sql STABLE AS $$
  SELECT coalesce(
    greatest(
      (SELECT max(d.date) FROM deliveries d WHERE d.agent_id = a_id AND d.status IN ('confirmed', 'invoiced')),
      (SELECT max(p.payout_date) FROM agent_payouts p WHERE p.agent_id = a_id)),
    (SELECT pks_business_date(a.created_at) FROM agents a WHERE a.id = a_id),
    pks_business_date(now()))
$$;
