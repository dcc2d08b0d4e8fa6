CREATE TABLE "reminder_invoices" (
	"invoice_id" integer NOT NULL,
	"level" integer NOT NULL,
	"send_id" integer NOT NULL,
	CONSTRAINT "reminder_invoices_invoice_id_level_pk" PRIMARY KEY("invoice_id","level")
);
--> statement-breakpoint
CREATE TABLE "reminder_runs" (
	"day" date PRIMARY KEY NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"sent" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reminder_sends" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "reminder_sends_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"client_id" integer NOT NULL,
	"channel" text NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_by" uuid,
	"day" date NOT NULL,
	CONSTRAINT "reminder_sends_channel_check" CHECK ("reminder_sends"."channel" in ('whatsapp','email'))
);
--> statement-breakpoint
CREATE TABLE "share_links" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "share_links_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"scope" text NOT NULL,
	"subject_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoked_by" uuid,
	"view_count" integer DEFAULT 0 NOT NULL,
	"last_viewed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid NOT NULL,
	CONSTRAINT "share_links_scope_check" CHECK ("share_links"."scope" in ('invoice','client-statement','agent-statement')),
	CONSTRAINT "share_links_expiry_check" CHECK ("share_links"."expires_at" > "share_links"."created_at")
);
--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "whatsapp_number" text;--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "email" text;--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "reminders_off" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "whatsapp_number" text;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "reminders_off" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "reminder_levels" integer[] DEFAULT '{-3,0,7,14,30}'::integer[] NOT NULL;--> statement-breakpoint
ALTER TABLE "reminder_invoices" ADD CONSTRAINT "reminder_invoices_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reminder_invoices" ADD CONSTRAINT "reminder_invoices_send_id_reminder_sends_id_fk" FOREIGN KEY ("send_id") REFERENCES "public"."reminder_sends"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reminder_sends" ADD CONSTRAINT "reminder_sends_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reminder_sends" ADD CONSTRAINT "reminder_sends_sent_by_users_id_fk" FOREIGN KEY ("sent_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share_links" ADD CONSTRAINT "share_links_revoked_by_users_id_fk" FOREIGN KEY ("revoked_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share_links" ADD CONSTRAINT "share_links_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reminder_invoices_send_idx" ON "reminder_invoices" USING btree ("send_id");--> statement-breakpoint
CREATE INDEX "reminder_sends_client_idx" ON "reminder_sends" USING btree ("client_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "share_links_token_hash_unique" ON "share_links" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "share_links_subject_idx" ON "share_links" USING btree ("scope","subject_id","id");