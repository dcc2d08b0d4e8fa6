CREATE OR REPLACE FUNCTION "pks_business_date"(t timestamptz) RETURNS date LANGUAGE sql STABLE AS $$
  SELECT (t at time zone coalesce(nullif(current_setting('pks.time_zone', true), ''), 'Africa/Lagos'))::date
$$;
