CREATE TABLE "tax_month_totals" (
	"month" date NOT NULL,
	"tax_rate" numeric(5, 2) NOT NULL,
	"invoice_count" integer DEFAULT 0 NOT NULL,
	"invoiced" numeric DEFAULT '0' NOT NULL,
	"invoice_tax" numeric DEFAULT '0' NOT NULL,
	"void_count" integer DEFAULT 0 NOT NULL,
	"credit_note_count" integer DEFAULT 0 NOT NULL,
	"reversal_count" integer DEFAULT 0 NOT NULL,
	"credited" numeric DEFAULT '0' NOT NULL,
	"credit_tax" numeric DEFAULT '0' NOT NULL,
	CONSTRAINT "tax_month_totals_month_tax_rate_pk" PRIMARY KEY("month","tax_rate")
);
--> statement-breakpoint
DROP INDEX "credit_notes_issue_date_idx";--> statement-breakpoint
-- The business date each invoice was issued (docs/decisions/0990): the day of created_at in the
-- business time zone. The app's migrator names that zone in pks.time_zone (APP_TIME_ZONE).
ALTER TABLE "invoices" ADD COLUMN "issue_date" date;--> statement-breakpoint
UPDATE "invoices" SET "issue_date" = ("created_at" at time zone coalesce(nullif(current_setting('pks.time_zone', true), ''), 'Africa/Lagos'))::date;--> statement-breakpoint
ALTER TABLE "invoices" ALTER COLUMN "issue_date" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "invoices_issue_date_idx" ON "invoices" USING btree ("issue_date","id");--> statement-breakpoint
CREATE INDEX "credit_notes_issue_date_idx" ON "credit_notes" USING btree ("issue_date","id");--> statement-breakpoint
-- The monthly tax report's totals (docs/decisions/0990), per month of issue and tax rate. Tax
-- contained is app/rules/invoices.server.ts taxContainedSql: amount x rate / (100 + rate),
-- rounded once per document, half away from zero (round() on numeric), so a reversal's tax is
-- exactly its note's, negated.
CREATE FUNCTION "pks_tax_contained"(amount numeric, rate numeric) RETURNS numeric LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(round(amount * rate / nullif(100 + rate, 0), 2), 0);
$$;
--> statement-breakpoint
CREATE FUNCTION "pks_tax_month_add"(day date, rate numeric, d_invoices integer, d_invoiced numeric, d_voids integer,
    d_notes integer, d_reversals integer, d_credited numeric) RETURNS void LANGUAGE sql AS $$
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
$$;
--> statement-breakpoint
-- An invoice counts in its month while it is not void; voiding it moves it to the void count.
-- Most updates (payments, credits, status) leave the issue date, amount, rate and void state as
-- they were and write nothing here, so they take no lock on these rows.
CREATE FUNCTION "pks_tax_month_invoice_trigger"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.issue_date = NEW.issue_date AND OLD.amount = NEW.amount AND OLD.tax_rate = NEW.tax_rate
      AND (OLD.payment_status = 'void') = (NEW.payment_status = 'void') THEN
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    IF OLD.payment_status = 'void' THEN
      PERFORM pks_tax_month_add(OLD.issue_date, OLD.tax_rate, 0, 0, -1, 0, 0, 0);
    ELSE
      PERFORM pks_tax_month_add(OLD.issue_date, OLD.tax_rate, -1, -OLD.amount, 0, 0, 0, 0);
    END IF;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    IF NEW.payment_status = 'void' THEN
      PERFORM pks_tax_month_add(NEW.issue_date, NEW.tax_rate, 0, 0, 1, 0, 0, 0);
    ELSE
      PERFORM pks_tax_month_add(NEW.issue_date, NEW.tax_rate, 1, NEW.amount, 0, 0, 0, 0);
    END IF;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Named to fire before the invoices' other totals triggers (same-event triggers fire in name
-- order): every write that touches these rows takes them before the status and owed totals, as a
-- credit note does by inserting its row before updating its invoice (lock order, decision 0508).
CREATE TRIGGER "invoices_0_tax_month" AFTER INSERT OR UPDATE OR DELETE ON "invoices" FOR EACH ROW EXECUTE FUNCTION pks_tax_month_invoice_trigger();
--> statement-breakpoint
-- A credit note counts in the month it is dated, at its invoice's rate; a reversal (a negative
-- row) takes its note's amount and tax back in the month the reversal is dated. Credit notes are
-- append-only (migration 0014), so only inserts arrive.
CREATE FUNCTION "pks_tax_month_credit_note_trigger"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pks_tax_month_add(NEW.issue_date, (SELECT tax_rate FROM invoices WHERE id = NEW.invoice_id), 0, 0, 0,
    CASE WHEN NEW.reverses_credit_note_id IS NULL THEN 1 ELSE 0 END,
    CASE WHEN NEW.reverses_credit_note_id IS NULL THEN 0 ELSE 1 END, NEW.amount);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "credit_notes_tax_month" AFTER INSERT ON "credit_notes" FOR EACH ROW EXECUTE FUNCTION pks_tax_month_credit_note_trigger();
--> statement-breakpoint
-- Recounts the rows from the invoices and credit notes, one document's tax at a time as the
-- triggers add it (bulk loads with triggers off call pks_rebuild_totals, which now ends with this).
CREATE FUNCTION "pks_rebuild_tax_month_totals"() RETURNS void LANGUAGE plpgsql AS $$
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
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "pks_rebuild_totals"() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pks_rebuild_invoice_totals();
  PERFORM pks_rebuild_invoice_status_rollup();
  PERFORM pks_rebuild_agent_balances();
  PERFORM pks_rebuild_client_owed();
  PERFORM pks_rebuild_tax_month_totals();
END $$;
--> statement-breakpoint
SELECT pks_rebuild_tax_month_totals();
