ALTER TABLE "task_actions" ADD COLUMN "run_key" varchar(100);--> statement-breakpoint
CREATE UNIQUE INDEX "task_actions_run_key_uq" ON "task_actions" USING btree ("backup_machine_id","run_key");