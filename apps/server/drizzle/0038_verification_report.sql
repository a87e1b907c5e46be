CREATE TABLE "verification_report_settings" (
	"customer_id" integer PRIMARY KEY NOT NULL,
	"monthly_mail" boolean DEFAULT false NOT NULL,
	"last_mailed_month" varchar(7)
);
--> statement-breakpoint
ALTER TABLE "verification_report_settings" ADD CONSTRAINT "verification_report_settings_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "verification_report_settings_due_idx" ON "verification_report_settings" USING btree ("last_mailed_month");