CREATE TABLE "bank_accounts" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "bank_accounts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"account_no" text,
	"mapping" jsonb,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bank_accounts_name_present" CHECK (length(btrim("bank_accounts"."name")) > 0)
);
--> statement-breakpoint
CREATE TABLE "bank_lines" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "bank_lines_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"bank_account_id" integer NOT NULL,
	"statement_id" integer NOT NULL,
	"line_date" date NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"narration" text NOT NULL,
	"reference" text,
	"fingerprint" text NOT NULL,
	"status" text DEFAULT 'unmatched' NOT NULL,
	"receipt_id" integer,
	"decided_by" uuid,
	"decided_at" timestamp with time zone,
	CONSTRAINT "bank_lines_amount_nonzero" CHECK ("bank_lines"."amount" <> 0),
	CONSTRAINT "bank_lines_status_check" CHECK ("bank_lines"."status" in ('unmatched','matched','not_receipt')),
	CONSTRAINT "bank_lines_matched_has_receipt" CHECK (("bank_lines"."status" = 'matched') = ("bank_lines"."receipt_id" is not null)),
	CONSTRAINT "bank_lines_debit_not_waiting" CHECK ("bank_lines"."amount" > 0 or "bank_lines"."status" = 'not_receipt')
);
--> statement-breakpoint
CREATE TABLE "bank_statements" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "bank_statements_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"bank_account_id" integer NOT NULL,
	"file_name" text NOT NULL,
	"lines_read" integer NOT NULL,
	"lines_added" integer NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "client_bank_accounts" (
	"account_no" text PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bank_accounts" ADD CONSTRAINT "bank_accounts_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_lines" ADD CONSTRAINT "bank_lines_bank_account_id_bank_accounts_id_fk" FOREIGN KEY ("bank_account_id") REFERENCES "public"."bank_accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_lines" ADD CONSTRAINT "bank_lines_statement_id_bank_statements_id_fk" FOREIGN KEY ("statement_id") REFERENCES "public"."bank_statements"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_lines" ADD CONSTRAINT "bank_lines_receipt_id_receipts_id_fk" FOREIGN KEY ("receipt_id") REFERENCES "public"."receipts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_lines" ADD CONSTRAINT "bank_lines_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_statements" ADD CONSTRAINT "bank_statements_bank_account_id_bank_accounts_id_fk" FOREIGN KEY ("bank_account_id") REFERENCES "public"."bank_accounts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_statements" ADD CONSTRAINT "bank_statements_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_bank_accounts" ADD CONSTRAINT "client_bank_accounts_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bank_accounts_name_lower_unique" ON "bank_accounts" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "bank_lines_fingerprint_unique" ON "bank_lines" USING btree ("bank_account_id","fingerprint");--> statement-breakpoint
CREATE UNIQUE INDEX "bank_lines_receipt_unique" ON "bank_lines" USING btree ("receipt_id");--> statement-breakpoint
CREATE INDEX "bank_lines_status_date_idx" ON "bank_lines" USING btree ("status","line_date" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "bank_lines_date_idx" ON "bank_lines" USING btree ("line_date" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "bank_statements_account_idx" ON "bank_statements" USING btree ("bank_account_id","id");--> statement-breakpoint
CREATE INDEX "client_bank_accounts_client_idx" ON "client_bank_accounts" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "invoices_owed_balance_idx" ON "invoices" USING btree (("amount" - ("amount_paid" + "amount_withheld" + "amount_credited"))) WHERE ("invoices"."amount_paid" + "invoices"."amount_withheld" + "invoices"."amount_credited" < "invoices"."amount" and "invoices"."payment_status" <> 'void');