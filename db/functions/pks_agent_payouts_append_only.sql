CREATE OR REPLACE FUNCTION "pks_agent_payouts_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- The one change allowed: a pending payout's decision, once (docs/decisions/1250). Every other
  -- column stays as it was written.
  IF TG_OP = 'UPDATE' AND OLD.status = 'pending' AND NEW.status IN ('approved', 'rejected')
    AND NEW.id = OLD.id AND NEW.agent_id = OLD.agent_id AND NEW.amount = OLD.amount
    AND NEW.payout_date = OLD.payout_date AND NEW.method = OLD.method
    AND NEW.reference IS NOT DISTINCT FROM OLD.reference AND NEW.note IS NOT DISTINCT FROM OLD.note
    AND NEW.created_by IS NOT DISTINCT FROM OLD.created_by AND NEW.created_at = OLD.created_at
    AND NEW.reverses_payout_id IS NOT DISTINCT FROM OLD.reverses_payout_id AND NEW.kind = OLD.kind
    AND NEW.decided_by IS NOT NULL AND NEW.decided_at IS NOT NULL THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'agent_payouts is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "agent_payouts_no_truncate" BEFORE TRUNCATE ON "agent_payouts" FOR EACH STATEMENT EXECUTE FUNCTION pks_agent_payouts_append_only();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "agent_payouts_no_update_delete" BEFORE UPDATE OR DELETE ON "agent_payouts" FOR EACH ROW EXECUTE FUNCTION pks_agent_payouts_append_only();
