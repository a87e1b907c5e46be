-- Trigram indexes serve the customer lists' case-insensitive "contains" search (ILIKE '%...%').
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "deletion_lease_until" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "customers_company_name_trgm_idx" ON "customers" USING gin ("company_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "customers_super_admin_name_trgm_idx" ON "customers" USING gin ("super_admin_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "customers_super_admin_email_trgm_idx" ON "customers" USING gin ("super_admin_email" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "customers_being_deleted_idx" ON "customers" USING btree ("id") WHERE "customers"."being_deleted";