ALTER TABLE "backup_packages" ADD COLUMN "deletion_lease_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "package_requests" ADD COLUMN "whmcs_order_id" integer;--> statement-breakpoint
ALTER TABLE "package_requests" ADD COLUMN "whmcs_invoice_id" integer;--> statement-breakpoint
ALTER TABLE "package_requests" ADD COLUMN "linked_storage_item_type" varchar(40);--> statement-breakpoint
ALTER TABLE "package_requests" ADD COLUMN "linked_storage_item_id" integer;--> statement-breakpoint
CREATE UNIQUE INDEX "package_requests_pending_package_uq" ON "package_requests" USING btree ("backup_package_id") WHERE "package_requests"."status" = 'PENDING' and "package_requests"."backup_package_id" is not null;--> statement-breakpoint
CREATE INDEX "package_requests_invoice_idx" ON "package_requests" USING btree ("whmcs_invoice_id");