CREATE TABLE "rate_cards" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "rate_cards_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"rate" numeric(12, 2) NOT NULL,
	"valid_from" date NOT NULL,
	"client_id" integer,
	"agent_id" integer,
	"site" text,
	"site_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid NOT NULL,
	CONSTRAINT "rate_cards_kind_check" CHECK ("rate_cards"."kind" in ('buying','selling','offloading','haulage')),
	CONSTRAINT "rate_cards_rate_range" CHECK ("rate_cards"."rate" >= 0),
	CONSTRAINT "rate_cards_valid_from_min" CHECK ("rate_cards"."valid_from" >= '2000-01-01'),
	CONSTRAINT "rate_cards_site_pair" CHECK (("rate_cards"."site" is null) = ("rate_cards"."site_key" is null)),
	CONSTRAINT "rate_cards_site_key_shape" CHECK ("rate_cards"."site_key" is null or ("rate_cards"."site_key" <> '' and "rate_cards"."site_key" !~ '\s'))
);
--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "buying_rate_card_id" integer;--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "selling_rate_card_id" integer;--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "offloading_cost_card_id" integer;--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "haulage_card_id" integer;--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "buying_rate_source" text;--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "selling_rate_source" text;--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "offloading_cost_source" text;--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "logistics_cost_source" text;--> statement-breakpoint
ALTER TABLE "rate_cards" ADD CONSTRAINT "rate_cards_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rate_cards" ADD CONSTRAINT "rate_cards_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rate_cards" ADD CONSTRAINT "rate_cards_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "rate_cards_scope_idx" ON "rate_cards" USING btree ("kind","client_id","agent_id","site_key","valid_from" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "rate_cards_client_idx" ON "rate_cards" USING btree ("client_id","valid_from" DESC NULLS FIRST) WHERE "rate_cards"."client_id" is not null;--> statement-breakpoint
CREATE INDEX "rate_cards_agent_idx" ON "rate_cards" USING btree ("agent_id","valid_from" DESC NULLS FIRST) WHERE "rate_cards"."agent_id" is not null;--> statement-breakpoint
CREATE INDEX "rate_cards_kind_day_idx" ON "rate_cards" USING btree ("kind","valid_from");--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_buying_rate_card_id_rate_cards_id_fk" FOREIGN KEY ("buying_rate_card_id") REFERENCES "public"."rate_cards"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_selling_rate_card_id_rate_cards_id_fk" FOREIGN KEY ("selling_rate_card_id") REFERENCES "public"."rate_cards"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_offloading_cost_card_id_rate_cards_id_fk" FOREIGN KEY ("offloading_cost_card_id") REFERENCES "public"."rate_cards"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_haulage_card_id_rate_cards_id_fk" FOREIGN KEY ("haulage_card_id") REFERENCES "public"."rate_cards"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "deliveries_buying_card_idx" ON "deliveries" USING btree ("buying_rate_card_id") WHERE "deliveries"."buying_rate_card_id" is not null;--> statement-breakpoint
CREATE INDEX "deliveries_selling_card_idx" ON "deliveries" USING btree ("selling_rate_card_id") WHERE "deliveries"."selling_rate_card_id" is not null;--> statement-breakpoint
CREATE INDEX "deliveries_offloading_card_idx" ON "deliveries" USING btree ("offloading_cost_card_id") WHERE "deliveries"."offloading_cost_card_id" is not null;--> statement-breakpoint
CREATE INDEX "deliveries_haulage_card_idx" ON "deliveries" USING btree ("haulage_card_id") WHERE "deliveries"."haulage_card_id" is not null;--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_rate_sources" CHECK (coalesce("deliveries"."buying_rate_source", 'card') in ('card','default','override') and coalesce("deliveries"."selling_rate_source", 'card') in ('card','default','override') and coalesce("deliveries"."offloading_cost_source", 'card') in ('card','default','override') and coalesce("deliveries"."logistics_cost_source", 'card') in ('card','typed','override'));--> statement-breakpoint
-- Hand-written, not generated by drizzle-kit: a rate card is never changed in place (docs/decisions/1230),
-- as db/functions/pks_rate_cards_never_changed.sql says it. An unused card may be deleted.
CREATE OR REPLACE FUNCTION "pks_rate_cards_never_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'rate_cards are never changed: % is not allowed (add a card from a later date instead)', TG_OP USING ERRCODE = 'insufficient_privilege';
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "rate_cards_no_truncate" BEFORE TRUNCATE ON "rate_cards" FOR EACH STATEMENT EXECUTE FUNCTION pks_rate_cards_never_changed();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "rate_cards_no_update" BEFORE UPDATE ON "rate_cards" FOR EACH ROW EXECUTE FUNCTION pks_rate_cards_never_changed();
