ALTER TYPE "public"."audit_event_type" ADD VALUE 'LINKING_CODE_CREATED';--> statement-breakpoint
ALTER TYPE "public"."audit_event_type" ADD VALUE 'LINKING_CODE_USED';--> statement-breakpoint
CREATE TABLE "machine_linking_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"code_hash" varchar(64) NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"backup_machine_id" integer
);
--> statement-breakpoint
ALTER TABLE "machine_linking_codes" ADD CONSTRAINT "machine_linking_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "machine_linking_codes" ADD CONSTRAINT "machine_linking_codes_backup_machine_id_backup_machines_id_fk" FOREIGN KEY ("backup_machine_id") REFERENCES "public"."backup_machines"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "machine_linking_codes_hash_uq" ON "machine_linking_codes" USING btree ("code_hash");--> statement-breakpoint
CREATE INDEX "machine_linking_codes_user_idx" ON "machine_linking_codes" USING btree ("user_id","expires_at");--> statement-breakpoint
CREATE INDEX "machine_linking_codes_expires_idx" ON "machine_linking_codes" USING btree ("expires_at");