CREATE TABLE "storage_tampering_bursts" (
	"backup_machine_id" integer PRIMARY KEY NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	"attempts" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "storage_tampering_bursts" ADD CONSTRAINT "storage_tampering_bursts_backup_machine_id_backup_machines_id_fk" FOREIGN KEY ("backup_machine_id") REFERENCES "public"."backup_machines"("id") ON DELETE cascade ON UPDATE no action;