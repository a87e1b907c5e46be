CREATE TABLE "machine_command_requests" (
	"backup_machine_id" integer NOT NULL,
	"request_id" varchar(100) NOT NULL,
	"user_id" integer,
	"command" varchar(32) NOT NULL,
	"reply" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "machine_command_requests_backup_machine_id_request_id_pk" PRIMARY KEY("backup_machine_id","request_id")
);
--> statement-breakpoint
ALTER TABLE "machine_command_requests" ADD CONSTRAINT "machine_command_requests_backup_machine_id_backup_machines_id_fk" FOREIGN KEY ("backup_machine_id") REFERENCES "public"."backup_machines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "machine_command_requests" ADD CONSTRAINT "machine_command_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "machine_command_requests_created_idx" ON "machine_command_requests" USING btree ("created_at");