CREATE OR REPLACE FUNCTION "pks_rebuild_tax_month_totals"() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM tax_month_totals;
  INSERT INTO tax_month_totals AS t (month, tax_rate, invoice_count, invoiced, invoice_tax, void_count,
      credit_note_count, reversal_count, credited, credit_tax)
  SELECT month, tax_rate, sum(invoice_count), sum(invoiced), sum(invoice_tax), sum(void_count),
      sum(credit_note_count), sum(reversal_count), sum(credited), sum(credit_tax)
  FROM (
    SELECT date_trunc('month', i.issue_date)::date AS month, i.tax_rate,
      count(*) FILTER (WHERE i.payment_status <> 'void')::int AS invoice_count,
      coalesce(sum(i.amount) FILTER (WHERE i.payment_status <> 'void'), 0) AS invoiced,
      coalesce(sum(pks_tax_contained(i.amount, i.tax_rate)) FILTER (WHERE i.payment_status <> 'void'), 0) AS invoice_tax,
      count(*) FILTER (WHERE i.payment_status = 'void')::int AS void_count,
      0 AS credit_note_count, 0 AS reversal_count, 0 AS credited, 0 AS credit_tax
    FROM invoices i GROUP BY 1, 2
    UNION ALL
    SELECT date_trunc('month', c.issue_date)::date, i.tax_rate, 0, 0, 0, 0,
      count(*) FILTER (WHERE c.reverses_credit_note_id IS NULL)::int,
      count(*) FILTER (WHERE c.reverses_credit_note_id IS NOT NULL)::int,
      sum(c.amount), sum(pks_tax_contained(c.amount, i.tax_rate))
    FROM credit_notes c JOIN invoices i ON i.id = c.invoice_id GROUP BY 1, 2
  ) parts
  GROUP BY month, tax_rate;
END $$;
