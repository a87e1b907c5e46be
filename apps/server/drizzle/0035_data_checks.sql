CREATE TABLE "repository_check_states" (
	"backup_machine_id" integer PRIMARY KEY NOT NULL,
	"next_slice" integer DEFAULT 1 NOT NULL,
	"slices" integer NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"lease_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "repository_data_checks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"backup_machine_id" integer NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"subset" varchar(16) NOT NULL,
	"outcome" text NOT NULL,
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"bytes_read" bigint DEFAULT 0 NOT NULL,
	"duration_ms" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "repository_check_states" ADD CONSTRAINT "repository_check_states_backup_machine_id_backup_machines_id_fk" FOREIGN KEY ("backup_machine_id") REFERENCES "public"."backup_machines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "repository_data_checks" ADD CONSTRAINT "repository_data_checks_backup_machine_id_backup_machines_id_fk" FOREIGN KEY ("backup_machine_id") REFERENCES "public"."backup_machines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "repository_check_states_due_idx" ON "repository_check_states" USING btree ("due_at");--> statement-breakpoint
CREATE INDEX "repository_data_checks_machine_idx" ON "repository_data_checks" USING btree ("backup_machine_id","started_at" DESC NULLS LAST,"id" DESC NULLS LAST);