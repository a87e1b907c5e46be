ALTER TABLE "backup_machines" ADD COLUMN "status_since" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "backup_tasks" ADD COLUMN "display_status_since" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
CREATE INDEX "backup_machines_attention_offline_idx" ON "backup_machines" USING btree ("last_seen_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE not "backup_machines"."online" and "backup_machines"."last_seen_at" is not null and not "backup_machines"."being_deleted";--> statement-breakpoint
CREATE INDEX "backup_machines_customer_attention_offline_idx" ON "backup_machines" USING btree ("customer_id","last_seen_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE not "backup_machines"."online" and "backup_machines"."last_seen_at" is not null and not "backup_machines"."being_deleted";--> statement-breakpoint
CREATE INDEX "backup_machines_attention_quota_idx" ON "backup_machines" USING btree ("status_since" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "backup_machines"."status" in ('OVER_PER_MACHINE_QUOTA', 'PACKAGE_OVER_QUOTA') and not "backup_machines"."being_deleted";--> statement-breakpoint
CREATE INDEX "backup_machines_customer_attention_quota_idx" ON "backup_machines" USING btree ("customer_id","status_since" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "backup_machines"."status" in ('OVER_PER_MACHINE_QUOTA', 'PACKAGE_OVER_QUOTA') and not "backup_machines"."being_deleted";--> statement-breakpoint
CREATE INDEX "backup_tasks_attention_idx" ON "backup_tasks" USING btree ("display_status_since" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "backup_tasks"."display_status" in ('LAST_FAILED', 'MISSED');--> statement-breakpoint
CREATE INDEX "backup_tasks_customer_attention_idx" ON "backup_tasks" USING btree ("customer_id","display_status_since" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "backup_tasks"."display_status" in ('LAST_FAILED', 'MISSED');--> statement-breakpoint
CREATE INDEX "task_actions_stalled_idx" ON "task_actions" USING btree ("stalled_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "task_actions"."status" in ('INITIATED', 'IN_PROGRESS') and "task_actions"."stalled_at" is not null;--> statement-breakpoint
-- When a task's displayed status and a machine's status last changed, kept by the database so that every code
-- path that changes them dates the change: 'Needs attention' lists by these, newest first.
CREATE FUNCTION "backup_tasks_display_status_since"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.display_status IS DISTINCT FROM OLD.display_status THEN
    NEW.display_status_since := now();
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "backup_tasks_display_status_since" BEFORE UPDATE OF display_status ON "backup_tasks"
  FOR EACH ROW EXECUTE FUNCTION "backup_tasks_display_status_since"();--> statement-breakpoint
CREATE FUNCTION "backup_machines_status_since"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status IS DISTINCT FROM OLD.status THEN
    NEW.status_since := now();
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "backup_machines_status_since" BEFORE UPDATE OF status ON "backup_machines"
  FOR EACH ROW EXECUTE FUNCTION "backup_machines_status_since"();--> statement-breakpoint
-- Existing rows: a task since its latest run, else its creation; a machine since its creation.
UPDATE backup_tasks t SET display_status_since = coalesce(
  (SELECT max(coalesce(a.time_finished, a.time_started)) FROM task_actions a WHERE a.backup_task_id = t.id), t.created_at);--> statement-breakpoint
UPDATE backup_machines SET status_since = created_at;
