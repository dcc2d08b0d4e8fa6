CREATE TABLE "withholding_month_totals" (
	"month" date NOT NULL,
	"withholding_count" integer DEFAULT 0 NOT NULL,
	"reversal_count" integer DEFAULT 0 NOT NULL,
	"wht" numeric DEFAULT '0' NOT NULL,
	"vat" numeric DEFAULT '0' NOT NULL,
	CONSTRAINT "withholding_month_totals_month_pk" PRIMARY KEY("month")
);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "pks_withholding_month_trigger"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO withholding_month_totals AS t (month, withholding_count, reversal_count, wht, vat)
  VALUES (date_trunc('month', NEW.withholding_date)::date,
    CASE WHEN NEW.reverses_withholding_id IS NULL THEN 1 ELSE 0 END,
    CASE WHEN NEW.reverses_withholding_id IS NULL THEN 0 ELSE 1 END, NEW.wht, NEW.vat)
  ON CONFLICT (month) DO UPDATE SET
    withholding_count = t.withholding_count + excluded.withholding_count,
    reversal_count = t.reversal_count + excluded.reversal_count,
    wht = t.wht + excluded.wht,
    vat = t.vat + excluded.vat;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "withholdings_month_totals" AFTER INSERT ON "withholdings" FOR EACH ROW EXECUTE FUNCTION pks_withholding_month_trigger();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "pks_rebuild_withholding_month_totals"() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM withholding_month_totals;
  INSERT INTO withholding_month_totals (month, withholding_count, reversal_count, wht, vat)
  SELECT date_trunc('month', w.withholding_date)::date,
    count(*) FILTER (WHERE w.reverses_withholding_id IS NULL)::int,
    count(*) FILTER (WHERE w.reverses_withholding_id IS NOT NULL)::int,
    sum(w.wht), sum(w.vat)
  FROM withholdings w GROUP BY 1;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "pks_rebuild_totals"() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pks_rebuild_invoice_totals();
  PERFORM pks_rebuild_invoice_status_rollup();
  PERFORM pks_rebuild_agent_balances();
  PERFORM pks_rebuild_client_owed();
  PERFORM pks_rebuild_tax_month_totals();
  PERFORM pks_rebuild_withholding_month_totals();
  PERFORM pks_rebuild_profit_totals();
END $$;
--> statement-breakpoint
SELECT pks_rebuild_withholding_month_totals();
