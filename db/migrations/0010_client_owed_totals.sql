CREATE TABLE "client_owed_totals" (
	"client_id" integer NOT NULL,
	"due_date" date NOT NULL,
	"owed" numeric DEFAULT '0' NOT NULL,
	"credit" numeric DEFAULT '0' NOT NULL,
	CONSTRAINT "client_owed_totals_client_id_due_date_pk" PRIMARY KEY("client_id","due_date")
);
--> statement-breakpoint
ALTER TABLE "client_owed_totals" ADD CONSTRAINT "client_owed_totals_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- What each client owes, per due date (docs/decisions/0970, "Kept totals"): every invoice that is
-- not void adds its balance (amount - paid - credited) to `owed` when above zero and to `credit`
-- when below. Kept in the invoice's own transaction; an update that leaves the balance, client
-- and due date as they were (most do not reach here: only payments, credit notes and voids change
-- a balance) writes nothing, so it takes no lock.
CREATE FUNCTION "pks_client_owed_add"(c_id integer, due date, d_owed numeric, d_credit numeric) RETURNS void LANGUAGE sql AS $$
  INSERT INTO client_owed_totals AS t (client_id, due_date, owed, credit) VALUES (c_id, due, d_owed, d_credit)
  ON CONFLICT (client_id, due_date) DO UPDATE SET owed = t.owed + excluded.owed, credit = t.credit + excluded.credit;
$$;
--> statement-breakpoint
CREATE FUNCTION "pks_client_owed_trigger"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  old_bal numeric := 0;
  new_bal numeric := 0;
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.payment_status <> 'void' THEN
    old_bal := OLD.amount - OLD.amount_paid - OLD.amount_credited;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') AND NEW.payment_status <> 'void' THEN
    new_bal := NEW.amount - NEW.amount_paid - NEW.amount_credited;
  END IF;
  IF TG_OP = 'UPDATE' AND OLD.client_id = NEW.client_id AND OLD.expected_payment_date = NEW.expected_payment_date THEN
    IF new_bal <> old_bal THEN
      PERFORM pks_client_owed_add(NEW.client_id, NEW.expected_payment_date,
        greatest(new_bal, 0) - greatest(old_bal, 0), least(new_bal, 0) - least(old_bal, 0));
    END IF;
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') AND old_bal <> 0 THEN
    PERFORM pks_client_owed_add(OLD.client_id, OLD.expected_payment_date, -greatest(old_bal, 0), -least(old_bal, 0));
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') AND new_bal <> 0 THEN
    PERFORM pks_client_owed_add(NEW.client_id, NEW.expected_payment_date, greatest(new_bal, 0), least(new_bal, 0));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "invoices_client_owed" AFTER INSERT OR UPDATE OR DELETE ON "invoices" FOR EACH ROW EXECUTE FUNCTION pks_client_owed_trigger();
--> statement-breakpoint
-- Recounts the rows from the invoices (existing data here; bulk loads that insert with triggers
-- off call pks_rebuild_totals, which now ends with this).
CREATE FUNCTION "pks_rebuild_client_owed"() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM client_owed_totals;
  INSERT INTO client_owed_totals (client_id, due_date, owed, credit)
  SELECT b.client_id, b.due, sum(greatest(b.bal, 0)), sum(least(b.bal, 0))
  FROM (SELECT i.client_id, i.expected_payment_date AS due, i.amount - i.amount_paid - i.amount_credited AS bal
        FROM invoices i WHERE i.payment_status <> 'void') b
  WHERE b.bal <> 0
  GROUP BY b.client_id, b.due;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "pks_rebuild_totals"() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pks_rebuild_invoice_totals();
  PERFORM pks_rebuild_agent_balances();
  PERFORM pks_rebuild_client_owed();
END $$;
--> statement-breakpoint
SELECT pks_rebuild_client_owed();
