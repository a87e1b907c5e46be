ALTER TABLE "audit_events" ADD COLUMN "account_customer_id" integer;--> statement-breakpoint
-- Issue 18: the records kept so far get their account from their tenant as it stands (the trigger refuses every
-- UPDATE, so it steps aside for these statements of the migration's own transaction, which holds the table's
-- exclusive lock from the ADD COLUMN on). A record of a customer deleted before this migration keeps its tenant
-- as its account: its reseller is not known any more.
ALTER TABLE "audit_events" DISABLE TRIGGER "audit_events_no_update";--> statement-breakpoint
UPDATE "audit_events" AS e SET "account_customer_id" = coalesce(c."parent_reseller_customer_id", c."id")
  FROM "customers" AS c WHERE c."id" = e."customer_id";--> statement-breakpoint
UPDATE "audit_events" SET "account_customer_id" = "customer_id"
  WHERE "account_customer_id" IS NULL AND "customer_id" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_events" ENABLE TRIGGER "audit_events_no_update";--> statement-breakpoint
-- Built after the rows are filled: one pass over the table instead of an index update per row.
CREATE INDEX "audit_events_account_idx" ON "audit_events" USING btree ("account_customer_id","at","id");
