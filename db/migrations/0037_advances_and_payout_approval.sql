ALTER TABLE "agent_payouts" ADD COLUMN "kind" text DEFAULT 'settlement' NOT NULL;--> statement-breakpoint
ALTER TABLE "agent_payouts" ADD COLUMN "status" text DEFAULT 'approved' NOT NULL;--> statement-breakpoint
ALTER TABLE "agent_payouts" ADD COLUMN "decided_by" uuid;--> statement-breakpoint
ALTER TABLE "agent_payouts" ADD COLUMN "decided_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "agent_payouts" ADD COLUMN "decision_reason" text;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "payout_approval_limit" numeric(12, 2);--> statement-breakpoint
ALTER TABLE "agent_payouts" ADD CONSTRAINT "agent_payouts_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "agent_payouts_pending_idx" ON "agent_payouts" USING btree ("id") WHERE "agent_payouts"."status" = 'pending';--> statement-breakpoint
ALTER TABLE "agent_payouts" ADD CONSTRAINT "agent_payouts_kind_check" CHECK ("agent_payouts"."kind" in ('settlement','advance'));--> statement-breakpoint
ALTER TABLE "agent_payouts" ADD CONSTRAINT "agent_payouts_status_check" CHECK ("agent_payouts"."status" in ('approved','pending','rejected'));--> statement-breakpoint
ALTER TABLE "agent_payouts" ADD CONSTRAINT "agent_payouts_decider_not_maker" CHECK ("agent_payouts"."decided_by" is null or "agent_payouts"."created_by" is null or "agent_payouts"."decided_by" <> "agent_payouts"."created_by");--> statement-breakpoint
ALTER TABLE "agent_payouts" ADD CONSTRAINT "agent_payouts_pending_undecided" CHECK ("agent_payouts"."status" <> 'pending' or ("agent_payouts"."created_by" is not null and "agent_payouts"."decided_by" is null and "agent_payouts"."decided_at" is null));--> statement-breakpoint
ALTER TABLE "agent_payouts" ADD CONSTRAINT "agent_payouts_rejected_decided" CHECK ("agent_payouts"."status" <> 'rejected' or ("agent_payouts"."decided_by" is not null and "agent_payouts"."decision_reason" is not null));--> statement-breakpoint
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
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "pks_agent_balance_payout_trigger"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Only an approved payout counts as paid (docs/decisions/1250): a pending one is counted when
  -- it is approved, a rejected one never.
  IF TG_OP = 'UPDATE' THEN
    IF OLD.status <> 'approved' AND NEW.status = 'approved' THEN
      UPDATE agent_balances SET paid = paid + NEW.amount WHERE agent_id = NEW.agent_id;
    END IF;
    RETURN NULL;
  END IF;
  INSERT INTO agent_balances AS b (agent_id, paid, n_payouts, last_activity)
  VALUES (NEW.agent_id, CASE WHEN NEW.status = 'approved' THEN NEW.amount ELSE 0 END, 1, NEW.payout_date)
  ON CONFLICT (agent_id) DO UPDATE SET paid = b.paid + excluded.paid, n_payouts = b.n_payouts + 1,
    last_activity = CASE WHEN b.n_deliveries + b.n_payouts = 0 THEN excluded.last_activity
      ELSE greatest(b.last_activity, excluded.last_activity) END;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER "agent_payouts_balance" AFTER INSERT OR UPDATE OF "status" ON "agent_payouts" FOR EACH ROW EXECUTE FUNCTION pks_agent_balance_payout_trigger();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "pks_rebuild_agent_balances"() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM agent_balances;
  INSERT INTO agent_balances (agent_id, earned, paid, n_deliveries, n_payouts, last_activity)
  SELECT a.id,
    coalesce((SELECT sum(round(d.paid_tons * coalesce(d.buying_rate, 0) - coalesce(d.offloading_cost, 0) - coalesce(d.mobilization_payment, 0), 2))
      FROM deliveries d WHERE d.agent_id = a.id AND d.status IN ('confirmed', 'invoiced')), 0),
    coalesce((SELECT sum(p.amount) FROM agent_payouts p WHERE p.agent_id = a.id AND p.status = 'approved'), 0),
    (SELECT count(*) FROM deliveries d WHERE d.agent_id = a.id AND d.status IN ('confirmed', 'invoiced')),
    (SELECT count(*) FROM agent_payouts p WHERE p.agent_id = a.id),
    pks_agent_last_activity(a.id)
  FROM agents a;
END $$;
