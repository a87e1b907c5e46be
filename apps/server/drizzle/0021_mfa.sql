ALTER TYPE "public"."audit_event_type" ADD VALUE 'MFA_ENABLED';--> statement-breakpoint
ALTER TYPE "public"."audit_event_type" ADD VALUE 'MFA_DISABLED';--> statement-breakpoint
ALTER TYPE "public"."audit_event_type" ADD VALUE 'MFA_CODE_FAILED';--> statement-breakpoint
ALTER TYPE "public"."audit_event_type" ADD VALUE 'MFA_RECOVERY_CODE_USED';--> statement-breakpoint
ALTER TYPE "public"."audit_event_type" ADD VALUE 'MFA_RECOVERY_CODES_REGENERATED';--> statement-breakpoint
CREATE TABLE "mfa_recovery_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"code_hash" varchar(64) NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "user_mfa" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"secret_sealed" text NOT NULL,
	"enabled_at" timestamp with time zone,
	"last_step" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "mfa_pending" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "mfa_recovery_codes" ADD CONSTRAINT "mfa_recovery_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_mfa" ADD CONSTRAINT "user_mfa_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mfa_recovery_codes_user_idx" ON "mfa_recovery_codes" USING btree ("user_id","code_hash");