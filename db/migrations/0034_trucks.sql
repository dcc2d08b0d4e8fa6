-- The truck register (docs/decisions/1200): one row per plate however it is typed. plate_key is
-- the plate without spaces or dashes, upper-cased, compared byte by byte (COLLATE "C") so its one
-- unique index gives the list its order and the search its prefix.
--> statement-breakpoint
CREATE TABLE "trucks" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "trucks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"plate" text NOT NULL,
	"plate_key" text COLLATE "C" NOT NULL,
	"transporter" text,
	"phone" text,
	"usual_tare_kg" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trucks_plate_key_shape" CHECK ("trucks"."plate_key" ~ '^[A-Z0-9]{1,20}$'),
	CONSTRAINT "trucks_usual_tare_range" CHECK ("trucks"."usual_tare_kg" between 1 and 200000)
);
--> statement-breakpoint
ALTER TABLE "trucks" ADD CONSTRAINT "trucks_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "trucks_plate_key_unique" ON "trucks" USING btree ("plate_key");--> statement-breakpoint
CREATE INDEX "trucks_updated_idx" ON "trucks" USING btree ("updated_at" DESC NULLS LAST,"id" DESC NULLS LAST);
