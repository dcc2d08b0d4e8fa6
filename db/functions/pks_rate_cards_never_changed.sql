CREATE OR REPLACE FUNCTION "pks_rate_cards_never_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'rate_cards are never changed: % is not allowed (add a card from a later date instead)', TG_OP USING ERRCODE = 'insufficient_privilege';
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "rate_cards_no_truncate" BEFORE TRUNCATE ON "rate_cards" FOR EACH STATEMENT EXECUTE FUNCTION pks_rate_cards_never_changed();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "rate_cards_no_update" BEFORE UPDATE ON "rate_cards" FOR EACH ROW EXECUTE FUNCTION pks_rate_cards_never_changed();
