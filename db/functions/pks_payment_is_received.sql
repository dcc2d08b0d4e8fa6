CREATE OR REPLACE FUNCTION "pks_payment_is_received"(p payments) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
  SELECT p.reverses_payment_id IS NULL AND NOT p.refund AND p.credit_moved_to_invoice_id IS NULL
    AND p.credit_from_payment_id IS NULL
$$;
