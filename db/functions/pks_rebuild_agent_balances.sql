CREATE OR REPLACE FUNCTION "pks_rebuild_agent_balances"() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM agent_balances;
  INSERT INTO agent_balances (agent_id, earned, paid, n_deliveries, n_payouts, last_activity)
  SELECT a.id,
    coalesce((SELECT sum(round(d.paid_tons * coalesce(d.buying_rate, 0) - coalesce(d.offloading_cost, 0) - coalesce(d.mobilization_payment, 0), 2))
      FROM deliveries d WHERE d.agent_id = a.id AND d.status IN ('confirmed', 'invoiced')), 0),
    coalesce((SELECT sum(p.amount) FROM agent_payouts p WHERE p.agent_id = a.id AND p.status = 'approved'), 0),
    (SELECT count(*) FROM deliveries d WHERE d.agent_id = a.id AND d.status IN ('confirmed', 'invoiced')),
    (SELECT count(*) FROM agent_payouts p WHERE p.agent_id = a.id),
    pks_agent_last_activity(a.id)
  FROM agents a;
END $$;
