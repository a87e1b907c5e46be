ALTER TABLE "task_actions" ADD COLUMN "progress_files_done" integer;--> statement-breakpoint
ALTER TABLE "task_actions" ADD COLUMN "progress_bytes_per_second" bigint;--> statement-breakpoint
ALTER TABLE "task_actions" ADD COLUMN "progress_seconds_remaining" integer;--> statement-breakpoint
ALTER TABLE "task_actions" ADD COLUMN "summary" jsonb;