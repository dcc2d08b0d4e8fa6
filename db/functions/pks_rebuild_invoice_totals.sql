CREATE OR REPLACE FUNCTION "pks_rebuild_invoice_totals"() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM delivery_day_totals;
  DELETE FROM delivery_month_totals;
  DELETE FROM invoice_status_totals;
  DELETE FROM payment_day_totals;
  INSERT INTO delivery_day_totals (day, n_all, n_confirmed, n_invoiced, n_eligible, tons, revenue, profit)
  SELECT date, count(*), count(*) FILTER (WHERE status = 'confirmed'), count(*) FILTER (WHERE status = 'invoiced'),
    count(*) FILTER (WHERE status = 'confirmed' AND client_id IS NOT NULL AND invoice_id IS NULL),
    coalesce(sum(invoiced_tons) FILTER (WHERE status IN ('confirmed', 'invoiced')), 0),
    coalesce(sum(invoiced_tons * selling_rate) FILTER (WHERE status IN ('confirmed', 'invoiced')), 0),
    coalesce(sum(invoiced_tons * selling_rate - (paid_tons * coalesce(buying_rate, 0) + coalesce(logistics_cost, 0) + coalesce(other_costs, 0)))
      FILTER (WHERE status IN ('confirmed', 'invoiced') AND selling_rate IS NOT NULL), 0)
  FROM deliveries GROUP BY date;
  INSERT INTO delivery_month_totals (month, n_all, n_confirmed, n_invoiced, n_eligible, tons, revenue, profit)
  SELECT date_trunc('month', day)::date, sum(n_all), sum(n_confirmed), sum(n_invoiced), sum(n_eligible), sum(tons), sum(revenue), sum(profit)
  FROM delivery_day_totals GROUP BY 1;
  INSERT INTO delivery_month_totals AS t (month, invoice_count, first_invoice_no, last_invoice_no)
  SELECT date_trunc('month', coalesce(l.date, d.date))::date, count(*), min(i.invoice_no::bigint), max(i.invoice_no::bigint)
  FROM invoices i
    LEFT JOIN invoice_lines l ON l.invoice_id = i.id AND l.delivery_id = i.delivery_id
    LEFT JOIN deliveries d ON d.id = i.delivery_id
  WHERE coalesce(l.date, d.date) IS NOT NULL
  GROUP BY 1
  ON CONFLICT (month) DO UPDATE SET invoice_count = excluded.invoice_count, first_invoice_no = excluded.first_invoice_no,
    last_invoice_no = excluded.last_invoice_no;
  INSERT INTO invoice_status_totals (payment_status, due_date, owed, n, amount, amount_paid, amount_credited, amount_withheld)
  SELECT payment_status, expected_payment_date, amount_paid + amount_withheld + amount_credited < amount, count(*), sum(amount),
    sum(amount_paid), sum(amount_credited), sum(amount_withheld)
  FROM invoices WHERE payment_status <> 'void' GROUP BY 1, 2, 3;
  INSERT INTO payment_day_totals (payment_date, client_id, n, amount, received)
  SELECT p.payment_date, i.client_id, count(*), sum(p.amount), count(*) FILTER (WHERE pks_payment_is_received(p)
    AND NOT EXISTS (SELECT 1 FROM payments r WHERE r.reverses_payment_id = p.id))
  FROM payments p JOIN invoices i ON i.id = p.invoice_id GROUP BY 1, 2;
  INSERT INTO invoice_counter (id, last_no) SELECT 1, coalesce(max(invoice_no::bigint), 126) FROM invoices
  ON CONFLICT (id) DO UPDATE SET last_no = greatest(invoice_counter.last_no, excluded.last_no);
  INSERT INTO credit_note_counter (id, last_no) SELECT 1, coalesce(max(substr(credit_note_no, 4)::bigint), 0) FROM credit_notes
  ON CONFLICT (id) DO UPDATE SET last_no = greatest(credit_note_counter.last_no, excluded.last_no);
END $$;
