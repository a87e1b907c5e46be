CREATE TYPE "public"."aggregate_task_status" AS ENUM('NO_COMPLETED_TASKS', 'NO_RUNNABLE_TASKS', 'SUCCESSFUL_TASKS', 'MISSED_TASKS', 'FAILED_TASKS', 'FAILED_AND_MISSED_TASKS', 'UNDEFINED');--> statement-breakpoint
CREATE TYPE "public"."task_display_status" AS ENUM('MISSED', 'LAST_SUCCEEDED', 'LAST_FAILED', 'NOT_COMPLETED_YET', 'AWAITING_SEED', 'BEING_DELETED', 'DELETION_FAILED', 'NOT_RUNNABLE');--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "storage_location_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "display_status" "customer_status" GENERATED ALWAYS AS (case when storage_location_count <= 0 then 'SIGNUP_REQUESTED'::customer_status else status end) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "super_admin_email" varchar(100);--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "super_admin_name" varchar(101);--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "display_name" text GENERATED ALWAYS AS (coalesce(nullif(company_name, ''), super_admin_name, '')) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "tasks_failed" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "tasks_missed" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "tasks_successful" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "tasks_never_run" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "tasks_ignored" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "tasks_in_progress" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "task_status" "aggregate_task_status" DEFAULT 'NO_COMPLETED_TASKS' NOT NULL;--> statement-breakpoint
ALTER TABLE "backup_machines" ADD COLUMN "assigned_user_name" varchar(101);--> statement-breakpoint
ALTER TABLE "backup_machines" ADD COLUMN "tasks_failed" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "backup_machines" ADD COLUMN "tasks_missed" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "backup_machines" ADD COLUMN "tasks_successful" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "backup_machines" ADD COLUMN "tasks_never_run" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "backup_machines" ADD COLUMN "tasks_ignored" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "backup_machines" ADD COLUMN "tasks_in_progress" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "backup_machines" ADD COLUMN "task_status" "aggregate_task_status" DEFAULT 'NO_COMPLETED_TASKS' NOT NULL;--> statement-breakpoint
ALTER TABLE "backup_tasks" ADD COLUMN "display_status" "task_display_status" DEFAULT 'NOT_COMPLETED_YET' NOT NULL;--> statement-breakpoint
CREATE INDEX "customers_dash_name_idx" ON "customers" USING btree (lower("display_name"),"id");--> statement-breakpoint
CREATE INDEX "customers_dash_email_idx" ON "customers" USING btree (lower("super_admin_email"),"id");--> statement-breakpoint
CREATE INDEX "customers_dash_status_idx" ON "customers" USING btree ("display_status","id");--> statement-breakpoint
CREATE INDEX "customers_dash_task_status_idx" ON "customers" USING btree ("task_status","id");--> statement-breakpoint
CREATE INDEX "customers_dash_parent_name_idx" ON "customers" USING btree ("parent_reseller_customer_id",lower("display_name"),"id");--> statement-breakpoint
CREATE INDEX "backup_machines_dash_name_idx" ON "backup_machines" USING btree (lower("name"),"id");--> statement-breakpoint
CREATE INDEX "backup_machines_dash_user_idx" ON "backup_machines" USING btree (lower("assigned_user_name"),"id");--> statement-breakpoint
CREATE INDEX "backup_machines_dash_os_idx" ON "backup_machines" USING btree ("os_family","id");--> statement-breakpoint
CREATE INDEX "backup_machines_dash_version_idx" ON "backup_machines" USING btree ("desktop_client_version","id");--> statement-breakpoint
CREATE INDEX "backup_machines_dash_status_idx" ON "backup_machines" USING btree ("status","id");--> statement-breakpoint
CREATE INDEX "backup_machines_dash_task_status_idx" ON "backup_machines" USING btree ("task_status","id");--> statement-breakpoint
CREATE INDEX "backup_machines_dash_customer_name_idx" ON "backup_machines" USING btree ("customer_id",lower("name"),"id");--> statement-breakpoint
CREATE INDEX "backup_machines_dash_customer_status_idx" ON "backup_machines" USING btree ("customer_id","status","id");--> statement-breakpoint
CREATE INDEX "backup_machines_dash_customer_task_status_idx" ON "backup_machines" USING btree ("customer_id","task_status","id");--> statement-breakpoint
CREATE INDEX "backup_tasks_machine_display_status_idx" ON "backup_tasks" USING btree ("backup_machine_id","display_status");--> statement-breakpoint
-- Copies of user names and e-mails that the dashboard sorts on, kept by the database so that no code
-- path that edits a user or reassigns a machine can leave them stale.
CREATE FUNCTION "customers_copy_super_admin"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT u.email, u.first_name || ' ' || u.surname INTO NEW.super_admin_email, NEW.super_admin_name
    FROM users u WHERE u.id = NEW.super_admin_user_id;
  IF NEW.super_admin_user_id IS NULL THEN
    NEW.super_admin_email := NULL;
    NEW.super_admin_name := NULL;
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "customers_copy_super_admin" BEFORE INSERT OR UPDATE OF super_admin_user_id ON "customers"
  FOR EACH ROW EXECUTE FUNCTION "customers_copy_super_admin"();--> statement-breakpoint
CREATE FUNCTION "backup_machines_copy_assigned_user"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.assigned_user_name := (SELECT u.first_name || ' ' || u.surname FROM users u WHERE u.id = NEW.assigned_user_id);
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "backup_machines_copy_assigned_user" BEFORE INSERT OR UPDATE OF assigned_user_id ON "backup_machines"
  FOR EACH ROW EXECUTE FUNCTION "backup_machines_copy_assigned_user"();--> statement-breakpoint
CREATE FUNCTION "users_propagate_names"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.email IS DISTINCT FROM OLD.email OR NEW.first_name IS DISTINCT FROM OLD.first_name
     OR NEW.surname IS DISTINCT FROM OLD.surname THEN
    UPDATE customers SET super_admin_email = NEW.email, super_admin_name = NEW.first_name || ' ' || NEW.surname
      WHERE super_admin_user_id = NEW.id;
    UPDATE backup_machines SET assigned_user_name = NEW.first_name || ' ' || NEW.surname
      WHERE assigned_user_id = NEW.id;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "users_propagate_names" AFTER UPDATE OF email, first_name, surname ON "users"
  FOR EACH ROW EXECUTE FUNCTION "users_propagate_names"();--> statement-breakpoint
CREATE FUNCTION "storage_locations_count"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    UPDATE customers SET storage_location_count = storage_location_count - 1 WHERE id = OLD.customer_id;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    UPDATE customers SET storage_location_count = storage_location_count + 1 WHERE id = NEW.customer_id;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "storage_locations_count" AFTER INSERT OR DELETE OR UPDATE OF customer_id ON "storage_locations"
  FOR EACH ROW EXECUTE FUNCTION "storage_locations_count"();--> statement-breakpoint
UPDATE customers c SET storage_location_count = (SELECT count(*) FROM storage_locations s WHERE s.customer_id = c.id);--> statement-breakpoint
UPDATE customers SET super_admin_user_id = super_admin_user_id;--> statement-breakpoint
UPDATE backup_machines SET assigned_user_id = assigned_user_id;
