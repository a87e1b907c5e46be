-- Issue 18: the records kept before the audit trail were the signed-in user's own events: its customer is both.
UPDATE "audit_events" SET "actor_customer_id" = "customer_id" WHERE "actor_customer_id" IS NULL;--> statement-breakpoint
-- Audit records are written once. No UPDATE, by anyone; a DELETE only from the retention job, which says so in
-- its transaction (SET LOCAL portal.audit_prune = 'on'), so a stray statement or an injected one cannot erase a
-- trail. TRUNCATE (a test database's reset) is not a row change and stays possible for the owner.
CREATE FUNCTION "audit_events_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('portal.audit_prune', true) = 'on' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'audit records cannot be changed or deleted' USING ERRCODE = 'insufficient_privilege';
END $$;--> statement-breakpoint
CREATE TRIGGER "audit_events_no_update" BEFORE UPDATE OR DELETE ON "audit_events"
  FOR EACH ROW EXECUTE FUNCTION "audit_events_refuse_change"();
