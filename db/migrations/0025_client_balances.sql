CREATE TABLE "client_balances" (
	"client_id" integer PRIMARY KEY NOT NULL,
	"owed" numeric DEFAULT '0' NOT NULL,
	"credit" numeric DEFAULT '0' NOT NULL
);
--> statement-breakpoint
ALTER TABLE "client_balances" ADD CONSTRAINT "client_balances_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Kept with client_owed_totals by the one function every change of a client's balance goes
-- through (the trigger of migration 0010), right after the due-date row. A write of one invoice
-- takes it in that order. Writes of several invoices (credit moves, a month's batch) take the
-- kept totals' tables whole first (lockKeptTotals in app/models/payment.server.ts), since one
-- row per client is met by every write of that client's invoices.
CREATE OR REPLACE FUNCTION "pks_client_owed_add"(c_id integer, due date, d_owed numeric, d_credit numeric) RETURNS void LANGUAGE sql AS $$
  INSERT INTO client_owed_totals AS t (client_id, due_date, owed, credit) VALUES (c_id, due, d_owed, d_credit)
  ON CONFLICT (client_id, due_date) DO UPDATE SET owed = t.owed + excluded.owed, credit = t.credit + excluded.credit;
  INSERT INTO client_balances AS b (client_id, owed, credit) VALUES (c_id, d_owed, d_credit)
  ON CONFLICT (client_id) DO UPDATE SET owed = b.owed + excluded.owed, credit = b.credit + excluded.credit;
$$;
--> statement-breakpoint
-- The recount (pks_rebuild_totals ends with it) rebuilds both, the second from the first.
CREATE OR REPLACE FUNCTION "pks_rebuild_client_owed"() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM client_owed_totals;
  INSERT INTO client_owed_totals (client_id, due_date, owed, credit)
  SELECT b.client_id, b.due, sum(greatest(b.bal, 0)), sum(least(b.bal, 0))
  FROM (SELECT i.client_id, i.expected_payment_date AS due, i.amount - i.amount_paid - i.amount_credited AS bal
        FROM invoices i WHERE i.payment_status <> 'void') b
  WHERE b.bal <> 0
  GROUP BY b.client_id, b.due;
  DELETE FROM client_balances;
  INSERT INTO client_balances (client_id, owed, credit)
  SELECT t.client_id, sum(t.owed), sum(t.credit) FROM client_owed_totals t GROUP BY t.client_id;
END $$;
--> statement-breakpoint
INSERT INTO client_balances (client_id, owed, credit)
SELECT t.client_id, sum(t.owed), sum(t.credit) FROM client_owed_totals t GROUP BY t.client_id;
