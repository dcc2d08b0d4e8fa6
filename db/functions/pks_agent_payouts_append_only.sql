CREATE OR REPLACE FUNCTION "pks_agent_payouts_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'agent_payouts is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "agent_payouts_no_truncate" BEFORE TRUNCATE ON "agent_payouts" FOR EACH STATEMENT EXECUTE FUNCTION pks_agent_payouts_append_only();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "agent_payouts_no_update_delete" BEFORE UPDATE OR DELETE ON "agent_payouts" FOR EACH ROW EXECUTE FUNCTION pks_agent_payouts_append_only();
