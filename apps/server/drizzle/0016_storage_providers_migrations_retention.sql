CREATE TYPE "public"."storage_user_api" AS ENUM('RGW_ADMIN', 'IAM');--> statement-breakpoint
ALTER TABLE "backup_tasks" ADD COLUMN "retention_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "package_migrations" ADD COLUMN "tasks_held" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "package_migrations" ADD COLUMN "verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "package_migrations" ADD COLUMN "lease_holder" varchar(100);--> statement-breakpoint
ALTER TABLE "package_migrations" ADD COLUMN "lease_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "storage_accounts" ADD COLUMN "user_api" "storage_user_api";--> statement-breakpoint
ALTER TABLE "storage_accounts" ADD COLUMN "require_object_lock" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "backup_tasks_retention_due_idx" ON "backup_tasks" USING btree ("retention_due_at") WHERE "backup_tasks"."retention_due_at" is not null;