CREATE TABLE "run_account_snapshots" (
	"backup_task_id" integer NOT NULL,
	"run_snapshot_id" varchar(64) NOT NULL,
	"account" varchar(64) NOT NULL,
	"restic_snapshot_id" varchar(64) NOT NULL,
	CONSTRAINT "run_account_snapshots_backup_task_id_run_snapshot_id_account_pk" PRIMARY KEY("backup_task_id","run_snapshot_id","account")
);
--> statement-breakpoint
ALTER TABLE "run_account_snapshots" ADD CONSTRAINT "run_account_snapshots_backup_task_id_backup_tasks_id_fk" FOREIGN KEY ("backup_task_id") REFERENCES "public"."backup_tasks"("id") ON DELETE cascade ON UPDATE no action;