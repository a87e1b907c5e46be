ALTER TABLE "backup_tasks" ALTER COLUMN "schedule_cron" SET DATA TYPE text;--> statement-breakpoint
ALTER TABLE "backup_tasks" ALTER COLUMN "path_to_seed_disk" SET DATA TYPE text;