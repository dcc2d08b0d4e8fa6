CREATE OR REPLACE FUNCTION "pks_invoice_profit_of"(inv integer) RETURNS numeric LANGUAGE sql STABLE AS $$
  SELECT round(coalesce(sum(d.invoiced_tons * d.selling_rate), 0)
    - coalesce(sum(d.paid_tons * coalesce(d.buying_rate, 0) + coalesce(d.logistics_cost, 0) + coalesce(d.other_costs, 0)), 0), 2)
  FROM deliveries d WHERE d.invoice_id = inv
$$;
