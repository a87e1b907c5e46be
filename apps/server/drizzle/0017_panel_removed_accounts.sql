CREATE TABLE "panel_removed_accounts" (
	"backup_task_id" integer NOT NULL,
	"account" varchar(64) NOT NULL,
	"missing_since" timestamp with time zone NOT NULL,
	CONSTRAINT "panel_removed_accounts_backup_task_id_account_pk" PRIMARY KEY("backup_task_id","account")
);
--> statement-breakpoint
ALTER TABLE "panel_removed_accounts" ADD CONSTRAINT "panel_removed_accounts_backup_task_id_backup_tasks_id_fk" FOREIGN KEY ("backup_task_id") REFERENCES "public"."backup_tasks"("id") ON DELETE cascade ON UPDATE no action;