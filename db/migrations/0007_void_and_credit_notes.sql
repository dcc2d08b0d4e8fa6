CREATE TABLE "credit_note_counter" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"last_no" bigint NOT NULL,
	CONSTRAINT "credit_note_counter_single_row" CHECK ("credit_note_counter"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "credit_notes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "credit_notes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"credit_note_no" text NOT NULL,
	"invoice_id" integer NOT NULL,
	"amount" numeric(12, 2) NOT NULL,
	"reason" text NOT NULL,
	"issue_date" date NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "credit_notes_no_format" CHECK ("credit_notes"."credit_note_no" ~ '^CN-[1-9][0-9]{0,17}$'),
	CONSTRAINT "credit_notes_amount_positive" CHECK ("credit_notes"."amount" > 0),
	CONSTRAINT "credit_notes_reason_present" CHECK (length(btrim("credit_notes"."reason")) > 0)
);
--> statement-breakpoint
CREATE TABLE "invoice_lines" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "invoice_lines_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"invoice_id" integer NOT NULL,
	"delivery_id" integer NOT NULL,
	"date" date NOT NULL,
	"agent_name" text,
	"truck_no" text,
	"location" text NOT NULL,
	"tons" numeric(10, 2) NOT NULL,
	"selling_rate" numeric(12, 2),
	"amount" numeric(16, 4) NOT NULL
);
--> statement-breakpoint
ALTER TABLE "invoices" DROP CONSTRAINT "invoices_status_check";--> statement-breakpoint
DROP INDEX "invoices_owed_id_idx";--> statement-breakpoint
DROP INDEX "invoices_owed_due_idx";--> statement-breakpoint
ALTER TABLE "invoice_status_totals" ADD COLUMN "amount_credited" numeric DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "amount_credited" numeric(12, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "void_reason" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "voided_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "voided_by" uuid;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_notes" ADD CONSTRAINT "credit_notes_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "credit_notes_no_unique" ON "credit_notes" USING btree ("credit_note_no");--> statement-breakpoint
CREATE INDEX "credit_notes_invoice_idx" ON "credit_notes" USING btree ("invoice_id","id");--> statement-breakpoint
CREATE INDEX "invoice_lines_invoice_idx" ON "invoice_lines" USING btree ("invoice_id","date","delivery_id");--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_lines_invoice_delivery_unique" ON "invoice_lines" USING btree ("invoice_id","delivery_id");--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_voided_by_users_id_fk" FOREIGN KEY ("voided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoices_owed_id_idx" ON "invoices" USING btree ("id") WHERE ("invoices"."amount_paid" + "invoices"."amount_credited" < "invoices"."amount" and "invoices"."payment_status" <> 'void');--> statement-breakpoint
CREATE INDEX "invoices_owed_due_idx" ON "invoices" USING btree ("expected_payment_date","id") WHERE ("invoices"."amount_paid" + "invoices"."amount_credited" < "invoices"."amount" and "invoices"."payment_status" <> 'void');--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_credited_within_amount" CHECK ("invoices"."amount_credited" >= 0 and "invoices"."amount_credited" <= "invoices"."amount");--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_void_check" CHECK (("invoices"."payment_status" = 'void') = ("invoices"."voided_at" is not null) and ("invoices"."payment_status" <> 'void' or ("invoices"."void_reason" is not null and "invoices"."amount_paid" = 0 and "invoices"."amount_credited" = 0)));--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_status_check" CHECK ("invoices"."payment_status" in ('pending','partial','paid','overdue','void'));--> statement-breakpoint
-- What existing invoices covered, copied from their deliveries (docs/decisions/0921).
INSERT INTO "invoice_lines" ("invoice_id", "delivery_id", "date", "agent_name", "truck_no", "location", "tons", "selling_rate", "amount")
SELECT d.invoice_id, d.id, d.date, a.name, d.truck_no, d.location, d.tons, d.selling_rate, coalesce(d.tons * d.selling_rate, 0)
FROM deliveries d LEFT JOIN agents a ON a.id = d.agent_id WHERE d.invoice_id IS NOT NULL;
--> statement-breakpoint
-- Status totals now carry credits, count paid + credited against the amount for "owed", and leave
-- void invoices out: a void invoice counts in no total (docs/decisions/0920).
CREATE FUNCTION "pks_invoice_status_add_v2"(i_status text, i_due date, i_amount numeric, i_paid numeric, i_credited numeric, sign integer)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF i_status = 'void' THEN
    RETURN;
  END IF;
  INSERT INTO invoice_status_totals AS t (payment_status, due_date, owed, n, amount, amount_paid, amount_credited)
  VALUES (i_status, i_due, i_paid + i_credited < i_amount, sign, sign * i_amount, sign * i_paid, sign * i_credited)
  ON CONFLICT (payment_status, due_date, owed) DO UPDATE SET n = t.n + excluded.n, amount = t.amount + excluded.amount,
    amount_paid = t.amount_paid + excluded.amount_paid, amount_credited = t.amount_credited + excluded.amount_credited;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "pks_invoice_totals_trigger"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND (OLD.payment_status, OLD.expected_payment_date, OLD.amount, OLD.amount_paid, OLD.amount_credited)
      IS NOT DISTINCT FROM (NEW.payment_status, NEW.expected_payment_date, NEW.amount, NEW.amount_paid, NEW.amount_credited) THEN
    RETURN NULL;
  END IF;
  -- Both status rows in one fixed order (by status name), whichever way the invoice moves.
  IF TG_OP = 'UPDATE' AND NEW.payment_status < OLD.payment_status THEN
    PERFORM pks_invoice_status_add_v2(NEW.payment_status, NEW.expected_payment_date, NEW.amount, NEW.amount_paid, NEW.amount_credited, 1);
    PERFORM pks_invoice_status_add_v2(OLD.payment_status, OLD.expected_payment_date, OLD.amount, OLD.amount_paid, OLD.amount_credited, -1);
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM pks_invoice_status_add_v2(OLD.payment_status, OLD.expected_payment_date, OLD.amount, OLD.amount_paid, OLD.amount_credited, -1);
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    PERFORM pks_invoice_status_add_v2(NEW.payment_status, NEW.expected_payment_date, NEW.amount, NEW.amount_paid, NEW.amount_credited, 1);
  END IF;
  IF TG_OP = 'INSERT' THEN
    INSERT INTO delivery_month_totals AS t (month, invoice_count, first_invoice_no, last_invoice_no)
    SELECT date_trunc('month', d.date)::date, 1, NEW.invoice_no::bigint, NEW.invoice_no::bigint FROM deliveries d WHERE d.id = NEW.delivery_id
    ON CONFLICT (month) DO UPDATE SET invoice_count = t.invoice_count + 1,
      first_invoice_no = least(t.first_invoice_no, excluded.first_invoice_no),
      last_invoice_no = greatest(t.last_invoice_no, excluded.last_invoice_no);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP FUNCTION "pks_invoice_status_add"(text, date, numeric, numeric, integer);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "pks_rebuild_totals"() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM delivery_day_totals;
  DELETE FROM delivery_month_totals;
  DELETE FROM invoice_status_totals;
  DELETE FROM payment_day_totals;
  INSERT INTO delivery_day_totals (day, n_all, n_confirmed, n_invoiced, n_eligible, tons, revenue, profit)
  SELECT date, count(*), count(*) FILTER (WHERE status = 'confirmed'), count(*) FILTER (WHERE status = 'invoiced'),
    count(*) FILTER (WHERE status = 'confirmed' AND client_id IS NOT NULL AND invoice_id IS NULL),
    coalesce(sum(tons) FILTER (WHERE status IN ('confirmed', 'invoiced')), 0),
    coalesce(sum(tons * selling_rate) FILTER (WHERE status IN ('confirmed', 'invoiced')), 0),
    coalesce(sum(tons * selling_rate - (tons * coalesce(buying_rate, 0) + coalesce(logistics_cost, 0) + coalesce(other_costs, 0)))
      FILTER (WHERE status IN ('confirmed', 'invoiced') AND selling_rate IS NOT NULL), 0)
  FROM deliveries GROUP BY date;
  INSERT INTO delivery_month_totals (month, n_all, n_confirmed, n_invoiced, n_eligible, tons, revenue, profit)
  SELECT date_trunc('month', day)::date, sum(n_all), sum(n_confirmed), sum(n_invoiced), sum(n_eligible), sum(tons), sum(revenue), sum(profit)
  FROM delivery_day_totals GROUP BY 1;
  INSERT INTO delivery_month_totals AS t (month, invoice_count, first_invoice_no, last_invoice_no)
  SELECT date_trunc('month', d.date)::date, count(*), min(i.invoice_no::bigint), max(i.invoice_no::bigint)
  FROM invoices i JOIN deliveries d ON d.id = i.delivery_id GROUP BY 1
  ON CONFLICT (month) DO UPDATE SET invoice_count = excluded.invoice_count, first_invoice_no = excluded.first_invoice_no,
    last_invoice_no = excluded.last_invoice_no;
  INSERT INTO invoice_status_totals (payment_status, due_date, owed, n, amount, amount_paid, amount_credited)
  SELECT payment_status, expected_payment_date, amount_paid + amount_credited < amount, count(*), sum(amount), sum(amount_paid),
    sum(amount_credited)
  FROM invoices WHERE payment_status <> 'void' GROUP BY 1, 2, 3;
  INSERT INTO payment_day_totals (payment_date, client_id, n, amount)
  SELECT p.payment_date, i.client_id, count(*), sum(p.amount) FROM payments p JOIN invoices i ON i.id = p.invoice_id GROUP BY 1, 2;
  INSERT INTO invoice_counter (id, last_no) SELECT 1, coalesce(max(invoice_no::bigint), 126) FROM invoices
  ON CONFLICT (id) DO UPDATE SET last_no = greatest(invoice_counter.last_no, excluded.last_no);
  INSERT INTO credit_note_counter (id, last_no) SELECT 1, coalesce(max(substr(credit_note_no, 4)::bigint), 0) FROM credit_notes
  ON CONFLICT (id) DO UPDATE SET last_no = greatest(credit_note_counter.last_no, excluded.last_no);
END $$;
--> statement-breakpoint
SELECT pks_rebuild_totals();
