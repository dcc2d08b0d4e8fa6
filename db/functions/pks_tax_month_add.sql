CREATE OR REPLACE FUNCTION "pks_tax_month_add"(day date, rate numeric, d_invoices integer, d_invoiced numeric, d_voids integer,
    d_notes integer, d_reversals integer, d_credited numeric) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO tax_month_totals AS t (month, tax_rate, invoice_count, invoiced, invoice_tax, void_count,
      credit_note_count, reversal_count, credited, credit_tax)
  VALUES (date_trunc('month', day)::date, rate, d_invoices, d_invoiced, pks_tax_contained(d_invoiced, rate), d_voids,
      d_notes, d_reversals, d_credited, pks_tax_contained(d_credited, rate))
  ON CONFLICT (month, tax_rate) DO UPDATE SET
    invoice_count = t.invoice_count + excluded.invoice_count,
    invoiced = t.invoiced + excluded.invoiced,
    invoice_tax = t.invoice_tax + excluded.invoice_tax,
    void_count = t.void_count + excluded.void_count,
    credit_note_count = t.credit_note_count + excluded.credit_note_count,
    reversal_count = t.reversal_count + excluded.reversal_count,
    credited = t.credited + excluded.credited,
    credit_tax = t.credit_tax + excluded.credit_tax;
  IF d_invoices <> 0 OR d_invoiced <> 0 OR d_voids <> 0 OR d_notes <> 0 OR d_reversals <> 0 OR d_credited <> 0 THEN
    DELETE FROM tax_month_totals
    WHERE month = date_trunc('month', day)::date AND tax_rate = rate
      AND invoice_count = 0 AND invoiced = 0 AND invoice_tax = 0 AND void_count = 0
      AND credit_note_count = 0 AND reversal_count = 0 AND credited = 0 AND credit_tax = 0;
  END IF;
END $$;
