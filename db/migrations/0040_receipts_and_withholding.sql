CREATE TABLE "receipts" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "receipts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"client_id" integer NOT NULL,
	"receipt_date" date NOT NULL,
	"amount" numeric(12, 2) NOT NULL,
	"reference" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "receipts_amount_positive" CHECK ("receipts"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "withholding_certificates" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "withholding_certificates_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"withholding_id" integer NOT NULL,
	"certificate_no" text NOT NULL,
	"received_on" date NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "withholding_certificates_no_present" CHECK (length(btrim("withholding_certificates"."certificate_no")) > 0)
);
--> statement-breakpoint
CREATE TABLE "withholdings" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "withholdings_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"receipt_id" integer NOT NULL,
	"invoice_id" integer NOT NULL,
	"client_id" integer NOT NULL,
	"withholding_date" date NOT NULL,
	"wht" numeric(12, 2) NOT NULL,
	"vat" numeric(12, 2) NOT NULL,
	"reverses_withholding_id" integer,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "withholdings_entry_kind" CHECK (("withholdings"."reverses_withholding_id" is null and "withholdings"."wht" >= 0 and "withholdings"."vat" >= 0 and "withholdings"."wht" + "withholdings"."vat" > 0) or ("withholdings"."reverses_withholding_id" is not null and "withholdings"."wht" <= 0 and "withholdings"."vat" <= 0 and "withholdings"."wht" + "withholdings"."vat" < 0))
);
--> statement-breakpoint
ALTER TABLE "invoices" DROP CONSTRAINT "invoices_void_check";--> statement-breakpoint
DROP INDEX "invoices_owed_id_idx";--> statement-breakpoint
DROP INDEX "invoices_credit_id_idx";--> statement-breakpoint
DROP INDEX "invoices_client_owed_due_idx";--> statement-breakpoint
DROP INDEX "invoices_owed_due_idx";--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "wht_rate" numeric(5, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "withholds_vat" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "invoice_status_rollup" ADD COLUMN "amount_withheld" numeric DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "invoice_status_totals" ADD COLUMN "amount_withheld" numeric DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "amount_withheld" numeric(12, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "receipt_id" integer;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withholding_certificates" ADD CONSTRAINT "withholding_certificates_withholding_id_withholdings_id_fk" FOREIGN KEY ("withholding_id") REFERENCES "public"."withholdings"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withholding_certificates" ADD CONSTRAINT "withholding_certificates_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withholdings" ADD CONSTRAINT "withholdings_receipt_id_receipts_id_fk" FOREIGN KEY ("receipt_id") REFERENCES "public"."receipts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withholdings" ADD CONSTRAINT "withholdings_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withholdings" ADD CONSTRAINT "withholdings_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withholdings" ADD CONSTRAINT "withholdings_reverses_withholding_id_withholdings_id_fk" FOREIGN KEY ("reverses_withholding_id") REFERENCES "public"."withholdings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withholdings" ADD CONSTRAINT "withholdings_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "receipts_date_idx" ON "receipts" USING btree ("receipt_date" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "receipts_client_date_idx" ON "receipts" USING btree ("client_id","receipt_date" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "receipts_reference_prefix_idx" ON "receipts" USING btree (lower("reference") text_pattern_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "withholding_certificates_withholding_idx" ON "withholding_certificates" USING btree ("withholding_id");--> statement-breakpoint
CREATE INDEX "withholdings_invoice_idx" ON "withholdings" USING btree ("invoice_id");--> statement-breakpoint
CREATE INDEX "withholdings_receipt_idx" ON "withholdings" USING btree ("receipt_id");--> statement-breakpoint
CREATE INDEX "withholdings_date_idx" ON "withholdings" USING btree ("withholding_date" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "withholdings_client_date_idx" ON "withholdings" USING btree ("client_id","withholding_date" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE UNIQUE INDEX "withholdings_reverses_idx" ON "withholdings" USING btree ("reverses_withholding_id");--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_receipt_id_receipts_id_fk" FOREIGN KEY ("receipt_id") REFERENCES "public"."receipts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payments_receipt_idx" ON "payments" USING btree ("receipt_id");--> statement-breakpoint
CREATE INDEX "invoices_owed_id_idx" ON "invoices" USING btree ("id") WHERE ("invoices"."amount_paid" + "invoices"."amount_withheld" + "invoices"."amount_credited" < "invoices"."amount" and "invoices"."payment_status" <> 'void');--> statement-breakpoint
CREATE INDEX "invoices_credit_id_idx" ON "invoices" USING btree ("id") WHERE ("invoices"."amount_paid" + "invoices"."amount_withheld" + "invoices"."amount_credited" > "invoices"."amount" and "invoices"."payment_status" <> 'void');--> statement-breakpoint
CREATE INDEX "invoices_client_owed_due_idx" ON "invoices" USING btree ("client_id","expected_payment_date","id") WHERE ("invoices"."amount_paid" + "invoices"."amount_withheld" + "invoices"."amount_credited" < "invoices"."amount" and "invoices"."payment_status" <> 'void');--> statement-breakpoint
CREATE INDEX "invoices_owed_due_idx" ON "invoices" USING btree ("expected_payment_date","id") WHERE ("invoices"."amount_paid" + "invoices"."amount_withheld" + "invoices"."amount_credited" < "invoices"."amount" and "invoices"."payment_status" <> 'void');--> statement-breakpoint
ALTER TABLE "clients" ADD CONSTRAINT "clients_wht_rate_range" CHECK ("clients"."wht_rate" >= 0 and "clients"."wht_rate" < 100);--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_withheld_within_amount" CHECK ("invoices"."amount_withheld" >= 0 and "invoices"."amount_withheld" <= "invoices"."amount");--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_void_check" CHECK (("invoices"."payment_status" = 'void') = ("invoices"."voided_at" is not null) and ("invoices"."payment_status" <> 'void' or ("invoices"."void_reason" is not null and "invoices"."amount_paid" = 0 and "invoices"."amount_withheld" = 0 and "invoices"."amount_credited" = 0)));--> statement-breakpoint
-- Hand-written, not generated by drizzle-kit (docs/decisions/1240): an invoice's balance is now
-- amount - paid - withheld - credited. Every kept total that read the balance reads the withheld
-- column too, the totals match checks the withholdings, the new tables are append-only, and no
-- withholding lands on a void invoice, as db/functions/ says it.
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "pks_invoice_status_add_v3"(i_status text, i_due date, i_amount numeric, i_paid numeric, i_withheld numeric, i_credited numeric, sign integer)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF i_status = 'void' THEN
    RETURN;
  END IF;
  INSERT INTO invoice_status_totals AS t (payment_status, due_date, owed, n, amount, amount_paid, amount_credited, amount_withheld)
  VALUES (i_status, i_due, i_paid + i_withheld + i_credited < i_amount, sign, sign * i_amount, sign * i_paid, sign * i_credited, sign * i_withheld)
  ON CONFLICT (payment_status, due_date, owed) DO UPDATE SET n = t.n + excluded.n, amount = t.amount + excluded.amount,
    amount_paid = t.amount_paid + excluded.amount_paid, amount_credited = t.amount_credited + excluded.amount_credited,
    amount_withheld = t.amount_withheld + excluded.amount_withheld;
  INSERT INTO invoice_status_rollup AS t (payment_status, owed, n, amount, amount_paid, amount_credited, amount_withheld)
  VALUES (i_status, i_paid + i_withheld + i_credited < i_amount, sign, sign * i_amount, sign * i_paid, sign * i_credited, sign * i_withheld)
  ON CONFLICT (payment_status, owed) DO UPDATE SET n = t.n + excluded.n, amount = t.amount + excluded.amount,
    amount_paid = t.amount_paid + excluded.amount_paid, amount_credited = t.amount_credited + excluded.amount_credited,
    amount_withheld = t.amount_withheld + excluded.amount_withheld;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "pks_invoice_totals_trigger"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND (OLD.payment_status, OLD.expected_payment_date, OLD.amount, OLD.amount_paid, OLD.amount_withheld, OLD.amount_credited)
      IS NOT DISTINCT FROM (NEW.payment_status, NEW.expected_payment_date, NEW.amount, NEW.amount_paid, NEW.amount_withheld, NEW.amount_credited) THEN
    RETURN NULL;
  END IF;
  -- Both status rows in one fixed order (by status name), whichever way the invoice moves.
  IF TG_OP = 'UPDATE' AND NEW.payment_status < OLD.payment_status THEN
    PERFORM pks_invoice_status_add_v3(NEW.payment_status, NEW.expected_payment_date, NEW.amount, NEW.amount_paid, NEW.amount_withheld, NEW.amount_credited, 1);
    PERFORM pks_invoice_status_add_v3(OLD.payment_status, OLD.expected_payment_date, OLD.amount, OLD.amount_paid, OLD.amount_withheld, OLD.amount_credited, -1);
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM pks_invoice_status_add_v3(OLD.payment_status, OLD.expected_payment_date, OLD.amount, OLD.amount_paid, OLD.amount_withheld, OLD.amount_credited, -1);
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    PERFORM pks_invoice_status_add_v3(NEW.payment_status, NEW.expected_payment_date, NEW.amount, NEW.amount_paid, NEW.amount_withheld, NEW.amount_credited, 1);
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
CREATE OR REPLACE TRIGGER "invoices_totals" AFTER INSERT OR UPDATE OR DELETE ON "invoices" FOR EACH ROW EXECUTE FUNCTION pks_invoice_totals_trigger();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "pks_client_owed_trigger"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  old_bal numeric := 0;
  new_bal numeric := 0;
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.payment_status <> 'void' THEN
    old_bal := OLD.amount - OLD.amount_paid - OLD.amount_withheld - OLD.amount_credited;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') AND NEW.payment_status <> 'void' THEN
    new_bal := NEW.amount - NEW.amount_paid - NEW.amount_withheld - NEW.amount_credited;
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
CREATE OR REPLACE TRIGGER "invoices_client_owed" AFTER INSERT OR UPDATE OR DELETE ON "invoices" FOR EACH ROW EXECUTE FUNCTION pks_client_owed_trigger();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "pks_rebuild_client_owed"() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM client_owed_totals;
  INSERT INTO client_owed_totals (client_id, due_date, owed, credit)
  SELECT b.client_id, b.due, sum(greatest(b.bal, 0)), sum(least(b.bal, 0))
  FROM (SELECT i.client_id, i.expected_payment_date AS due, i.amount - i.amount_paid - i.amount_withheld - i.amount_credited AS bal
        FROM invoices i WHERE i.payment_status <> 'void') b
  WHERE b.bal <> 0
  GROUP BY b.client_id, b.due;
  DELETE FROM client_balances;
  INSERT INTO client_balances (client_id, owed, credit)
  SELECT t.client_id, sum(t.owed), sum(t.credit) FROM client_owed_totals t GROUP BY t.client_id;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "pks_rebuild_invoice_status_rollup"() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM invoice_status_rollup;
  INSERT INTO invoice_status_rollup (payment_status, owed, n, amount, amount_paid, amount_credited, amount_withheld)
  SELECT payment_status, amount_paid + amount_withheld + amount_credited < amount, count(*), sum(amount), sum(amount_paid),
    sum(amount_credited), sum(amount_withheld)
  FROM invoices WHERE payment_status <> 'void' GROUP BY 1, 2;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "pks_rebuild_invoice_totals"() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM delivery_day_totals;
  DELETE FROM delivery_month_totals;
  DELETE FROM invoice_status_totals;
  DELETE FROM payment_day_totals;
  INSERT INTO delivery_day_totals (day, n_all, n_confirmed, n_invoiced, n_eligible, tons, revenue, profit)
  SELECT date, count(*), count(*) FILTER (WHERE status = 'confirmed'), count(*) FILTER (WHERE status = 'invoiced'),
    count(*) FILTER (WHERE status = 'confirmed' AND client_id IS NOT NULL AND invoice_id IS NULL),
    coalesce(sum(invoiced_tons) FILTER (WHERE status IN ('confirmed', 'invoiced')), 0),
    coalesce(sum(invoiced_tons * selling_rate) FILTER (WHERE status IN ('confirmed', 'invoiced')), 0),
    coalesce(sum(invoiced_tons * selling_rate - (paid_tons * coalesce(buying_rate, 0) + coalesce(logistics_cost, 0) + coalesce(other_costs, 0)))
      FILTER (WHERE status IN ('confirmed', 'invoiced') AND selling_rate IS NOT NULL), 0)
  FROM deliveries GROUP BY date;
  INSERT INTO delivery_month_totals (month, n_all, n_confirmed, n_invoiced, n_eligible, tons, revenue, profit)
  SELECT date_trunc('month', day)::date, sum(n_all), sum(n_confirmed), sum(n_invoiced), sum(n_eligible), sum(tons), sum(revenue), sum(profit)
  FROM delivery_day_totals GROUP BY 1;
  INSERT INTO delivery_month_totals AS t (month, invoice_count, first_invoice_no, last_invoice_no)
  SELECT date_trunc('month', coalesce(l.date, d.date))::date, count(*), min(i.invoice_no::bigint), max(i.invoice_no::bigint)
  FROM invoices i
    LEFT JOIN invoice_lines l ON l.invoice_id = i.id AND l.delivery_id = i.delivery_id
    LEFT JOIN deliveries d ON d.id = i.delivery_id
  WHERE coalesce(l.date, d.date) IS NOT NULL
  GROUP BY 1
  ON CONFLICT (month) DO UPDATE SET invoice_count = excluded.invoice_count, first_invoice_no = excluded.first_invoice_no,
    last_invoice_no = excluded.last_invoice_no;
  INSERT INTO invoice_status_totals (payment_status, due_date, owed, n, amount, amount_paid, amount_credited, amount_withheld)
  SELECT payment_status, expected_payment_date, amount_paid + amount_withheld + amount_credited < amount, count(*), sum(amount),
    sum(amount_paid), sum(amount_credited), sum(amount_withheld)
  FROM invoices WHERE payment_status <> 'void' GROUP BY 1, 2, 3;
  INSERT INTO payment_day_totals (payment_date, client_id, n, amount, received)
  SELECT p.payment_date, i.client_id, count(*), sum(p.amount), count(*) FILTER (WHERE pks_payment_is_received(p)
    AND NOT EXISTS (SELECT 1 FROM payments r WHERE r.reverses_payment_id = p.id))
  FROM payments p JOIN invoices i ON i.id = p.invoice_id GROUP BY 1, 2;
  INSERT INTO invoice_counter (id, last_no) SELECT 1, coalesce(max(invoice_no::bigint), 126) FROM invoices
  ON CONFLICT (id) DO UPDATE SET last_no = greatest(invoice_counter.last_no, excluded.last_no);
  INSERT INTO credit_note_counter (id, last_no) SELECT 1, coalesce(max(substr(credit_note_no, 4)::bigint), 0) FROM credit_notes
  ON CONFLICT (id) DO UPDATE SET last_no = greatest(credit_note_counter.last_no, excluded.last_no);
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "pks_invoice_totals_match"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  inv integer;
  kept record;
  paid numeric;
  credited numeric;
  withheld numeric;
BEGIN
  -- Each branch names only its own table's column (PL/pgSQL resolves NEW's fields per row type).
  IF TG_TABLE_NAME = 'invoices' THEN
    inv := NEW.id;
  ELSE
    inv := NEW.invoice_id;
  END IF;
  SELECT i.invoice_no, i.amount_paid, i.amount_credited, i.amount_withheld INTO kept FROM invoices i WHERE i.id = inv;
  SELECT coalesce(sum(p.amount), 0) INTO paid FROM payments p WHERE p.invoice_id = inv;
  SELECT coalesce(sum(c.amount), 0) INTO credited FROM credit_notes c WHERE c.invoice_id = inv;
  SELECT coalesce(sum(w.wht + w.vat), 0) INTO withheld FROM withholdings w WHERE w.invoice_id = inv;
  IF kept.amount_paid <> paid OR kept.amount_credited <> credited THEN
    RAISE EXCEPTION 'invoice % says paid % and credited %, but its payments add up to % and its credit notes to %',
      kept.invoice_no, kept.amount_paid, kept.amount_credited, paid, credited
      USING ERRCODE = 'check_violation';
  END IF;
  IF kept.amount_withheld <> withheld THEN
    RAISE EXCEPTION 'invoice % says withheld %, but its withholdings add up to %', kept.invoice_no, kept.amount_withheld, withheld
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS "credit_notes_totals_match" ON "credit_notes";
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "credit_notes_totals_match" AFTER INSERT ON "credit_notes"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION pks_invoice_totals_match();
--> statement-breakpoint
DROP TRIGGER IF EXISTS "invoices_totals_match" ON "invoices";
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "invoices_totals_match" AFTER UPDATE OF "amount_paid", "amount_credited", "amount_withheld" ON "invoices"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION pks_invoice_totals_match();
--> statement-breakpoint
DROP TRIGGER IF EXISTS "payments_totals_match" ON "payments";
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "payments_totals_match" AFTER INSERT ON "payments"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION pks_invoice_totals_match();
--> statement-breakpoint
DROP TRIGGER IF EXISTS "withholdings_totals_match" ON "withholdings";
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "withholdings_totals_match" AFTER INSERT ON "withholdings"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION pks_invoice_totals_match();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "pks_money_rows_not_on_void"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  inv record;
BEGIN
  SELECT i.invoice_no, i.payment_status INTO inv FROM invoices i WHERE i.id = NEW.invoice_id FOR SHARE;
  IF inv.payment_status = 'void' THEN
    RAISE EXCEPTION 'invoice % is void: no payment or credit note is recorded on it', inv.invoice_no
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "credit_notes_not_on_void" BEFORE INSERT ON "credit_notes" FOR EACH ROW EXECUTE FUNCTION pks_money_rows_not_on_void();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "payments_not_on_void" BEFORE INSERT ON "payments" FOR EACH ROW EXECUTE FUNCTION pks_money_rows_not_on_void();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "withholdings_not_on_void" BEFORE INSERT ON "withholdings" FOR EACH ROW EXECUTE FUNCTION pks_money_rows_not_on_void();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "pks_invoices_keep_document"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'UPDATE' THEN
    RAISE EXCEPTION 'invoices keeps every invoice (void it instead): % is not allowed', TG_OP
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF (NEW.id, NEW.invoice_no, NEW.delivery_id, NEW.client_id, NEW.amount, NEW.tax_rate,
      NEW.expected_payment_date, NEW.issue_date, NEW.created_by, NEW.created_at)
     IS DISTINCT FROM (OLD.id, OLD.invoice_no, OLD.delivery_id, OLD.client_id, OLD.amount, OLD.tax_rate,
      OLD.expected_payment_date, OLD.issue_date, OLD.created_by, OLD.created_at)
     OR (NEW.profit IS DISTINCT FROM OLD.profit
         AND (OLD.payment_status = 'void' OR NEW.profit IS DISTINCT FROM pks_invoice_profit_of(OLD.id))) THEN
    RAISE EXCEPTION 'invoice % is issued: its number, client, deliveries, amount, tax rate and dates never change, and its profit only follows its deliveries'' costs', OLD.invoice_no
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF OLD.payment_status = 'void'
     AND (NEW.payment_status, NEW.amount_paid, NEW.amount_withheld, NEW.amount_credited, NEW.void_reason, NEW.voided_at, NEW.voided_by)
       IS DISTINCT FROM (OLD.payment_status, OLD.amount_paid, OLD.amount_withheld, OLD.amount_credited, OLD.void_reason, OLD.voided_at, OLD.voided_by) THEN
    RAISE EXCEPTION 'invoice % is void, and a void is final', OLD.invoice_no USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF NEW.payment_status = 'void' AND OLD.payment_status <> 'void'
     AND (EXISTS (SELECT 1 FROM payments WHERE invoice_id = OLD.id)
          OR EXISTS (SELECT 1 FROM credit_notes WHERE invoice_id = OLD.id)
          OR EXISTS (SELECT 1 FROM withholdings WHERE invoice_id = OLD.id)) THEN
    RAISE EXCEPTION 'invoice % has payments or credit notes and cannot be voided: issue a credit note instead', OLD.invoice_no
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "invoices_keep_document" BEFORE UPDATE OR DELETE ON "invoices" FOR EACH ROW EXECUTE FUNCTION pks_invoices_keep_document();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "invoices_no_truncate" BEFORE TRUNCATE ON "invoices" FOR EACH STATEMENT EXECUTE FUNCTION pks_invoices_keep_document();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "pks_receipts_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: % is not allowed', TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "receipts_no_truncate" BEFORE TRUNCATE ON "receipts" FOR EACH STATEMENT EXECUTE FUNCTION pks_receipts_append_only();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "receipts_no_update_delete" BEFORE UPDATE OR DELETE ON "receipts" FOR EACH ROW EXECUTE FUNCTION pks_receipts_append_only();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "withholdings_no_truncate" BEFORE TRUNCATE ON "withholdings" FOR EACH STATEMENT EXECUTE FUNCTION pks_receipts_append_only();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "withholdings_no_update_delete" BEFORE UPDATE OR DELETE ON "withholdings" FOR EACH ROW EXECUTE FUNCTION pks_receipts_append_only();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "withholding_certificates_no_truncate" BEFORE TRUNCATE ON "withholding_certificates" FOR EACH STATEMENT EXECUTE FUNCTION pks_receipts_append_only();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "withholding_certificates_no_update_delete" BEFORE UPDATE OR DELETE ON "withholding_certificates" FOR EACH ROW EXECUTE FUNCTION pks_receipts_append_only();
--> statement-breakpoint
DROP FUNCTION "pks_invoice_status_add_v2"(text, date, numeric, numeric, numeric, integer);
