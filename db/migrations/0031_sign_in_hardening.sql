CREATE TABLE "recovery_codes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "recovery_codes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" uuid NOT NULL,
	"code_hash" text NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "temporary_password_issued_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "temporary_password_used_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "recovery_codes" ADD CONSTRAINT "recovery_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "recovery_codes_user_hash_unique" ON "recovery_codes" USING btree ("user_id","code_hash");--> statement-breakpoint
-- Temporary passwords issued before this change keep their single use from now on; their issue time is their expiry less the 72 hours they were given.
UPDATE "users" SET "temporary_password_issued_at" = "temporary_password_expires_at" - interval '72 hours' WHERE "must_change_password" = 1 AND "temporary_password_expires_at" IS NOT NULL;
