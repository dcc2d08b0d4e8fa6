CREATE OR REPLACE FUNCTION "pks_client_owed_add"(c_id integer, due date, d_owed numeric, d_credit numeric) RETURNS void LANGUAGE sql AS $$
  INSERT INTO client_owed_totals AS t (client_id, due_date, owed, credit) VALUES (c_id, due, d_owed, d_credit)
  ON CONFLICT (client_id, due_date) DO UPDATE SET owed = t.owed + excluded.owed, credit = t.credit + excluded.credit;
  INSERT INTO client_balances AS b (client_id, owed, credit) VALUES (c_id, d_owed, d_credit)
  ON CONFLICT (client_id) DO UPDATE SET owed = b.owed + excluded.owed, credit = b.credit + excluded.credit;
$$;
