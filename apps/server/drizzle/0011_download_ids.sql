CREATE TABLE "download_ids" (
	"id_hash" varchar(64) PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"backup_machine_id" integer NOT NULL,
	"backup_task_id" integer NOT NULL,
	"task_action_id" bigint NOT NULL,
	"request" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "download_ids" ADD CONSTRAINT "download_ids_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "download_ids" ADD CONSTRAINT "download_ids_backup_machine_id_backup_machines_id_fk" FOREIGN KEY ("backup_machine_id") REFERENCES "public"."backup_machines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "download_ids" ADD CONSTRAINT "download_ids_backup_task_id_backup_tasks_id_fk" FOREIGN KEY ("backup_task_id") REFERENCES "public"."backup_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "download_ids" ADD CONSTRAINT "download_ids_task_action_id_task_actions_id_fk" FOREIGN KEY ("task_action_id") REFERENCES "public"."task_actions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "download_ids_expires_idx" ON "download_ids" USING btree ("expires_at");