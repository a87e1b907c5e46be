CREATE TABLE "reseller_images" (
	"file_name" varchar(100) PRIMARY KEY NOT NULL,
	"content_base64" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notification_thresholds" (
	"customer_id" integer PRIMARY KEY NOT NULL,
	"offline_hours" integer NOT NULL,
	"quota_near_percent" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "package_quota_alerts" (
	"package_id" integer PRIMARY KEY NOT NULL,
	"level" varchar(4) NOT NULL,
	"changed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_notification_machines" (
	"user_id" integer NOT NULL,
	"machine_id" integer NOT NULL,
	CONSTRAINT "user_notification_machines_user_id_machine_id_pk" PRIMARY KEY("user_id","machine_id")
);
--> statement-breakpoint
CREATE TABLE "user_notification_settings" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"run_failed" boolean NOT NULL,
	"run_warnings" boolean NOT NULL,
	"run_missed" boolean NOT NULL,
	"machine_offline" boolean NOT NULL,
	"quota" boolean NOT NULL,
	"summary" varchar(10) NOT NULL,
	"all_machines" boolean NOT NULL,
	"summary_sent_for" date,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "backup_machines" ADD COLUMN "offline_alerted_for" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "notification_thresholds" ADD CONSTRAINT "notification_thresholds_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "package_quota_alerts" ADD CONSTRAINT "package_quota_alerts_package_id_backup_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."backup_packages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_notification_machines" ADD CONSTRAINT "user_notification_machines_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_notification_machines" ADD CONSTRAINT "user_notification_machines_machine_id_backup_machines_id_fk" FOREIGN KEY ("machine_id") REFERENCES "public"."backup_machines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_notification_settings" ADD CONSTRAINT "user_notification_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_notification_settings" ADD CONSTRAINT "user_notification_settings_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "user_notification_machines_machine_idx" ON "user_notification_machines" USING btree ("machine_id");--> statement-breakpoint
CREATE INDEX "user_notification_settings_customer_idx" ON "user_notification_settings" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "user_notification_settings_summary_idx" ON "user_notification_settings" USING btree ("summary","summary_sent_for") WHERE "user_notification_settings"."summary" <> 'NONE';--> statement-breakpoint
CREATE INDEX "backup_machines_offline_alert_idx" ON "backup_machines" USING btree ("last_seen_at") WHERE not "backup_machines"."online" and "backup_machines"."last_seen_at" is not null and "backup_machines"."offline_alerted_for" is distinct from "backup_machines"."last_seen_at";