-- Names differing only in case or surrounding spaces were accepted before. Existing
-- duplicates keep working: the later ones get their id appended ("Musa Ibrahim (17)") so the
-- unique index can be built and each stays distinguishable in pick lists.
UPDATE "agents" SET "name" = btrim("name") WHERE "name" <> btrim("name");--> statement-breakpoint
UPDATE "clients" SET "name" = btrim("name") WHERE "name" <> btrim("name");--> statement-breakpoint
UPDATE "agents" a SET "name" = a."name" || ' (' || a."id" || ')' WHERE EXISTS (SELECT 1 FROM "agents" b WHERE lower(b."name") = lower(a."name") AND b."id" < a."id");--> statement-breakpoint
UPDATE "clients" a SET "name" = a."name" || ' (' || a."id" || ')' WHERE EXISTS (SELECT 1 FROM "clients" b WHERE lower(b."name") = lower(a."name") AND b."id" < a."id");--> statement-breakpoint
DROP INDEX "clients_name_lower_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "agents_name_lower_unique" ON "agents" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "clients_name_lower_unique" ON "clients" USING btree (lower("name"));
