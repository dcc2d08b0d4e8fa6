CREATE OR REPLACE FUNCTION "pks_rebuild_client_owed"() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM client_owed_totals;
  INSERT INTO client_owed_totals (client_id, due_date, owed, credit)
  SELECT b.client_id, b.due, sum(greatest(b.bal, 0)), sum(least(b.bal, 0))
  FROM (SELECT i.client_id, i.expected_payment_date AS due, i.amount - i.amount_paid - i.amount_withheld - i.amount_credited AS bal
        FROM invoices i WHERE i.payment_status <> 'void') b
  WHERE b.bal <> 0
  GROUP BY b.client_id, b.due;
  DELETE FROM client_balances;
  INSERT INTO client_balances (client_id, owed, credit)
  SELECT t.client_id, sum(t.owed), sum(t.credit) FROM client_owed_totals t GROUP BY t.client_id;
END $$;
