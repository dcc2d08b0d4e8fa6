CREATE OR REPLACE FUNCTION "pks_invoice_status_add_v3"(i_status text, i_due date, i_amount numeric, i_paid numeric, i_withheld numeric, i_credited numeric, sign integer)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF i_status = 'void' THEN
    RETURN;
  END IF;
  INSERT INTO invoice_status_totals AS t (payment_status, due_date, owed, n, amount, amount_paid, amount_credited, amount_withheld)
  VALUES (i_status, i_due, i_paid + i_withheld + i_credited < i_amount, sign, sign * i_amount, sign * i_paid, sign * i_credited, sign * i_withheld)
  ON CONFLICT (payment_status, due_date, owed) DO UPDATE SET n = t.n + excluded.n, amount = t.amount + excluded.amount,
    amount_paid = t.amount_paid + excluded.amount_paid, amount_credited = t.amount_credited + excluded.amount_credited,
    amount_withheld = t.amount_withheld + excluded.amount_withheld;
  INSERT INTO invoice_status_rollup AS t (payment_status, owed, n, amount, amount_paid, amount_credited, amount_withheld)
  VALUES (i_status, i_paid + i_withheld + i_credited < i_amount, sign, sign * i_amount, sign * i_paid, sign * i_credited, sign * i_withheld)
  ON CONFLICT (payment_status, owed) DO UPDATE SET n = t.n + excluded.n, amount = t.amount + excluded.amount,
    amount_paid = t.amount_paid + excluded.amount_paid, amount_credited = t.amount_credited + excluded.amount_credited,
    amount_withheld = t.amount_withheld + excluded.amount_withheld;
END $$;
