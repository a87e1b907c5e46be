DROP INDEX "backup_machines_dash_counts_idx";--> statement-breakpoint
CREATE INDEX "customers_dash_status_task_status_idx" ON "customers" USING btree ("display_status","task_status","id");--> statement-breakpoint
CREATE INDEX "customers_dash_task_status_status_idx" ON "customers" USING btree ("task_status","display_status","id");--> statement-breakpoint
CREATE INDEX "backup_machines_dash_task_status_status_idx" ON "backup_machines" USING btree ("task_status","status","id");--> statement-breakpoint
CREATE INDEX "backup_machines_dash_status_task_status_idx" ON "backup_machines" USING btree ("status","task_status","id");--> statement-breakpoint
CREATE INDEX "backup_machines_dash_customer_user_idx" ON "backup_machines" USING btree ("customer_id",lower("assigned_user_name"),"id");--> statement-breakpoint
CREATE INDEX "backup_machines_dash_customer_os_idx" ON "backup_machines" USING btree ("customer_id","os_family","id");--> statement-breakpoint
CREATE INDEX "backup_machines_dash_customer_version_idx" ON "backup_machines" USING btree ("customer_id","desktop_client_version","id");