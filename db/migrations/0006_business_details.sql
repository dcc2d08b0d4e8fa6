CREATE TABLE "business_details" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"company_name" text,
	"address" text,
	"phone" text,
	"email" text,
	"registration_no" text,
	"tax_no" text,
	"bank_name" text,
	"bank_account_name" text,
	"bank_account_no" text,
	"logo" "bytea",
	"logo_type" text,
	"logo_updated_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	CONSTRAINT "business_details_single_row" CHECK ("business_details"."id" = 1),
	CONSTRAINT "business_details_logo_type" CHECK ("business_details"."logo_type" in ('image/png','image/jpeg')),
	CONSTRAINT "business_details_logo_size" CHECK (octet_length("business_details"."logo") <= 204800),
	CONSTRAINT "business_details_logo_complete" CHECK (("business_details"."logo" is null) = ("business_details"."logo_type" is null))
);
--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "phone" text;--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "bank_name" text;--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "bank_account_name" text;--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "bank_account_no" text;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "address" text;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "email" text;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "phone" text;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "tax_no" text;--> statement-breakpoint
ALTER TABLE "business_details" ADD CONSTRAINT "business_details_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;