CREATE TABLE "invoice_status_rollup" (
	"payment_status" text NOT NULL,
	"owed" boolean NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	"amount" numeric DEFAULT '0' NOT NULL,
	"amount_paid" numeric DEFAULT '0' NOT NULL,
	"amount_credited" numeric DEFAULT '0' NOT NULL,
	CONSTRAINT "invoice_status_rollup_payment_status_owed_pk" PRIMARY KEY("payment_status","owed")
);
--> statement-breakpoint
CREATE INDEX "invoice_status_totals_owed_due_idx" ON "invoice_status_totals" USING btree ("due_date") WHERE "invoice_status_totals"."owed";--> statement-breakpoint
-- The invoice status totals once more without the due date (docs/decisions/0508): the summary
-- cards read these few rows and, for Pending, Partial and Overdue, only the owed rows due from
-- today on. Each status's due-date row is written first, then its roll-up row, and the statuses
-- in the fixed order the trigger already keeps (by status name), so two transactions take the
-- rows in the same order. Only settling an invoice or issuing one touches a roll-up row: issuing
-- already queues on the invoice counter, and a payment holds its rows until it commits.
CREATE OR REPLACE FUNCTION "pks_invoice_status_add_v2"(i_status text, i_due date, i_amount numeric, i_paid numeric, i_credited numeric, sign integer)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF i_status = 'void' THEN
    RETURN;
  END IF;
  INSERT INTO invoice_status_totals AS t (payment_status, due_date, owed, n, amount, amount_paid, amount_credited)
  VALUES (i_status, i_due, i_paid + i_credited < i_amount, sign, sign * i_amount, sign * i_paid, sign * i_credited)
  ON CONFLICT (payment_status, due_date, owed) DO UPDATE SET n = t.n + excluded.n, amount = t.amount + excluded.amount,
    amount_paid = t.amount_paid + excluded.amount_paid, amount_credited = t.amount_credited + excluded.amount_credited;
  INSERT INTO invoice_status_rollup AS t (payment_status, owed, n, amount, amount_paid, amount_credited)
  VALUES (i_status, i_paid + i_credited < i_amount, sign, sign * i_amount, sign * i_paid, sign * i_credited)
  ON CONFLICT (payment_status, owed) DO UPDATE SET n = t.n + excluded.n, amount = t.amount + excluded.amount,
    amount_paid = t.amount_paid + excluded.amount_paid, amount_credited = t.amount_credited + excluded.amount_credited;
END $$;
--> statement-breakpoint
CREATE FUNCTION "pks_rebuild_invoice_status_rollup"() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM invoice_status_rollup;
  INSERT INTO invoice_status_rollup (payment_status, owed, n, amount, amount_paid, amount_credited)
  SELECT payment_status, amount_paid + amount_credited < amount, count(*), sum(amount), sum(amount_paid), sum(amount_credited)
  FROM invoices WHERE payment_status <> 'void' GROUP BY 1, 2;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "pks_rebuild_totals"() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pks_rebuild_invoice_totals();
  PERFORM pks_rebuild_invoice_status_rollup();
  PERFORM pks_rebuild_agent_balances();
  PERFORM pks_rebuild_client_owed();
END $$;
--> statement-breakpoint
SELECT pks_rebuild_invoice_status_rollup();
