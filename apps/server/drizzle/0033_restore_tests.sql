CREATE TABLE "restore_test_settings" (
	"customer_id" integer PRIMARY KEY NOT NULL,
	"interval_days" integer
);
--> statement-breakpoint
CREATE TABLE "restore_tests" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"backup_task_id" integer NOT NULL,
	"backup_machine_id" integer NOT NULL,
	"test_key" uuid NOT NULL,
	"manual" boolean NOT NULL,
	"requested_by_user_id" integer,
	"outcome" varchar(16) DEFAULT 'RUNNING' NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"snapshot_id" varchar(64),
	"files_tested" integer DEFAULT 0 NOT NULL,
	"bytes_tested" bigint DEFAULT 0 NOT NULL,
	"changed_files_tested" integer DEFAULT 0 NOT NULL,
	"duration_ms" integer,
	"mismatch_count" integer DEFAULT 0 NOT NULL,
	"mismatches" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"message" varchar(4000),
	CONSTRAINT "restore_tests_test_key_unique" UNIQUE("test_key")
);
--> statement-breakpoint
ALTER TABLE "restore_test_settings" ADD CONSTRAINT "restore_test_settings_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "restore_tests" ADD CONSTRAINT "restore_tests_backup_task_id_backup_tasks_id_fk" FOREIGN KEY ("backup_task_id") REFERENCES "public"."backup_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "restore_tests" ADD CONSTRAINT "restore_tests_backup_machine_id_backup_machines_id_fk" FOREIGN KEY ("backup_machine_id") REFERENCES "public"."backup_machines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "restore_tests" ADD CONSTRAINT "restore_tests_requested_by_user_id_users_id_fk" FOREIGN KEY ("requested_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "restore_tests_task_idx" ON "restore_tests" USING btree ("backup_task_id","started_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "restore_tests_machine_idx" ON "restore_tests" USING btree ("backup_machine_id");--> statement-breakpoint
CREATE INDEX "restore_tests_running_idx" ON "restore_tests" USING btree ("started_at") WHERE "restore_tests"."outcome" = 'RUNNING';--> statement-breakpoint
CREATE UNIQUE INDEX "restore_tests_one_running_uq" ON "restore_tests" USING btree ("backup_task_id") WHERE "restore_tests"."outcome" = 'RUNNING';