ALTER TABLE "backup_tasks" ADD COLUMN "retention_hold_action_id" bigint;--> statement-breakpoint
ALTER TABLE "task_actions" ADD COLUMN "change_reasons" jsonb;--> statement-breakpoint
ALTER TABLE "task_actions" ADD COLUMN "change_acknowledged_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "task_actions" ADD COLUMN "smaller_than_usual" boolean DEFAULT false NOT NULL;