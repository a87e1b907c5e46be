ALTER TABLE "audit_events" DROP CONSTRAINT "audit_events_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "audit_events" DROP CONSTRAINT "audit_events_customer_id_customers_id_fk";
--> statement-breakpoint
DROP INDEX "audit_events_customer_idx";--> statement-breakpoint
ALTER TABLE "audit_events" ALTER COLUMN "type" SET DATA TYPE varchar(100);--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "actor_customer_id" integer;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "name" varchar(201);--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "subject_type" varchar(40);--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "subject_id" integer;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "outcome" varchar(10);--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "http_status" smallint;--> statement-breakpoint
CREATE INDEX "audit_events_at_idx" ON "audit_events" USING btree ("at","id");--> statement-breakpoint
CREATE INDEX "audit_events_email_idx" ON "audit_events" USING btree (lower("email"),"at");--> statement-breakpoint
CREATE INDEX "audit_events_type_idx" ON "audit_events" USING btree ("type","at");--> statement-breakpoint
CREATE INDEX "audit_events_subject_idx" ON "audit_events" USING btree ("subject_type","subject_id","at");--> statement-breakpoint
CREATE INDEX "audit_events_customer_idx" ON "audit_events" USING btree ("customer_id","at","id");--> statement-breakpoint
DROP TYPE "public"."audit_event_type";