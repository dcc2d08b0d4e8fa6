CREATE OR REPLACE FUNCTION "pks_rebuild_invoice_status_rollup"() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM invoice_status_rollup;
  INSERT INTO invoice_status_rollup (payment_status, owed, n, amount, amount_paid, amount_credited, amount_withheld)
  SELECT payment_status, amount_paid + amount_withheld + amount_credited < amount, count(*), sum(amount), sum(amount_paid),
    sum(amount_credited), sum(amount_withheld)
  FROM invoices WHERE payment_status <> 'void' GROUP BY 1, 2;
END $$;
