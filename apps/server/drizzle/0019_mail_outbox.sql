CREATE TABLE "mail_outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"event_key" varchar(200) NOT NULL,
	"customer_id" integer,
	"kind" varchar(40) NOT NULL,
	"recipient" varchar(100) NOT NULL,
	"message" jsonb NOT NULL,
	"status" varchar(10) DEFAULT 'QUEUED' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "mail_outbox_event_key_unique" UNIQUE("event_key")
);
--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mail_outbox_due_idx" ON "mail_outbox" USING btree ("next_attempt_at") WHERE "mail_outbox"."status" = 'QUEUED';--> statement-breakpoint
CREATE INDEX "mail_outbox_customer_idx" ON "mail_outbox" USING btree ("customer_id","status","created_at");