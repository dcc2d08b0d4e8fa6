CREATE OR REPLACE FUNCTION "pks_tax_contained"(amount numeric, rate numeric) RETURNS numeric LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(round(amount * rate / nullif(100 + rate, 0), 2), 0);
$$;
