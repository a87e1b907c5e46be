CREATE TABLE "task_verification_counts" (
	"customer_id" integer NOT NULL,
	"verification_status" varchar(16) NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "task_verification_counts_customer_id_verification_status_pk" PRIMARY KEY("customer_id","verification_status")
);
--> statement-breakpoint
ALTER TABLE "backup_tasks" ADD COLUMN "verification_status" varchar(16) DEFAULT 'NEVER' NOT NULL;--> statement-breakpoint
ALTER TABLE "backup_tasks" ADD COLUMN "verification_status_since" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "backup_tasks" ADD COLUMN "last_restore_test_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "backup_tasks" ADD COLUMN "last_restore_test_files" integer;--> statement-breakpoint
ALTER TABLE "backup_tasks" ADD COLUMN "restore_test_failed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "backup_tasks" ADD COLUMN "last_full_read_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "backup_tasks" ADD COLUMN "data_check_damaged" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "backup_tasks" ADD COLUMN "verification_overdue_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "backup_tasks" ADD COLUMN "restore_test_due_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "user_notification_settings" ADD COLUMN "verification" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "backup_tasks_restore_test_due_idx" ON "backup_tasks" USING btree ("restore_test_due_at") WHERE "backup_tasks"."status" = 'ACTIVE';--> statement-breakpoint
CREATE INDEX "backup_tasks_verification_overdue_idx" ON "backup_tasks" USING btree ("verification_overdue_at") WHERE "backup_tasks"."verification_status" = 'VERIFIED';--> statement-breakpoint
CREATE INDEX "backup_tasks_verification_status_idx" ON "backup_tasks" USING btree ("verification_status","id");--> statement-breakpoint
CREATE INDEX "backup_tasks_customer_verification_status_idx" ON "backup_tasks" USING btree ("customer_id","verification_status","id");--> statement-breakpoint
CREATE INDEX "backup_tasks_verification_attention_idx" ON "backup_tasks" USING btree ("verification_status_since" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "backup_tasks"."verification_status" in ('FAILED', 'OVERDUE');--> statement-breakpoint
CREATE INDEX "backup_tasks_customer_verification_attention_idx" ON "backup_tasks" USING btree ("customer_id","verification_status_since" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "backup_tasks"."verification_status" in ('FAILED', 'OVERDUE');--> statement-breakpoint
-- Backfill (issue 32 item 3): each task's last passing restore test and whether its last finished one failed, its
-- schedule's next due time, its repository's last full read (the oldest of the latest passing checks of each slice of
-- the current rotation, when every slice has one) and damage, then the deadline and status of the domain's rule
-- (features/verification; defaults: the 30-day interval and period, 2 days' grace).
UPDATE backup_tasks t SET last_restore_test_at = p.finished_at, last_restore_test_files = p.files_tested
  FROM (SELECT DISTINCT ON (backup_task_id) backup_task_id, coalesce(finished_at, started_at) AS finished_at, files_tested
          FROM restore_tests WHERE outcome = 'PASSED' ORDER BY backup_task_id, started_at DESC, id DESC) p
 WHERE p.backup_task_id = t.id;--> statement-breakpoint
UPDATE backup_tasks t SET restore_test_failed = true
  FROM (SELECT DISTINCT ON (backup_task_id) backup_task_id, outcome
          FROM restore_tests WHERE outcome <> 'RUNNING' ORDER BY backup_task_id, started_at DESC, id DESC) l
 WHERE l.backup_task_id = t.id AND l.outcome IN ('MISMATCH', 'FAILED');--> statement-breakpoint
UPDATE backup_tasks t
   SET restore_test_due_at = r.started_at + make_interval(days => coalesce(
         (SELECT s.interval_days FROM restore_test_settings s WHERE s.customer_id = t.customer_id), 30))
  FROM (SELECT backup_task_id, max(started_at) AS started_at FROM restore_tests GROUP BY 1) r
 WHERE r.backup_task_id = t.id;--> statement-breakpoint
UPDATE backup_tasks t SET data_check_damaged = p.damaged, last_full_read_at = p.full_read
  FROM (SELECT l.backup_machine_id, bool_or(l.outcome = 'FAILED') AS damaged,
               CASE WHEN count(*) = max(l.slices) AND bool_and(l.outcome = 'PASSED') THEN min(l.started_at) END AS full_read
          FROM (SELECT DISTINCT ON (c.backup_machine_id, c.subset) c.backup_machine_id, c.outcome, c.started_at, s.slices
                  FROM repository_data_checks c JOIN repository_check_states s ON s.backup_machine_id = c.backup_machine_id
                 WHERE c.outcome <> 'ERROR' AND split_part(c.subset, '/', 2) = s.slices::text
                 ORDER BY c.backup_machine_id, c.subset, c.started_at DESC, c.id DESC) l
         GROUP BY 1) p
 WHERE p.backup_machine_id = t.backup_machine_id;--> statement-breakpoint
UPDATE backup_tasks t
   SET verification_overdue_at = least(
         t.last_restore_test_at + make_interval(days => 2 + coalesce(
           (SELECT s.interval_days FROM restore_test_settings s WHERE s.customer_id = t.customer_id), 30)),
         t.last_full_read_at + make_interval(days => 32))
 WHERE t.last_restore_test_at IS NOT NULL OR t.last_full_read_at IS NOT NULL;--> statement-breakpoint
UPDATE backup_tasks
   SET verification_status = CASE
         WHEN restore_test_failed OR data_check_damaged THEN 'FAILED'
         WHEN verification_overdue_at IS NULL THEN 'NEVER'
         WHEN verification_overdue_at <= now() THEN 'OVERDUE'
         ELSE 'VERIFIED' END
 WHERE restore_test_failed OR data_check_damaged OR verification_overdue_at IS NOT NULL;--> statement-breakpoint
-- Users who get failed-run alerts get verification alerts too, as a new user's defaults have it.
UPDATE user_notification_settings SET verification = run_failed;--> statement-breakpoint
-- task_verification_counts is kept by the database like task_status_counts (migration 0010): statement triggers with
-- transition tables, rows written in key order.
CREATE FUNCTION "backup_tasks_verification_count_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO task_verification_counts AS c (customer_id, verification_status, n)
    SELECT customer_id, verification_status, count(*)::int FROM new_tasks GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT (customer_id, verification_status) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "backup_tasks_verification_count_inserted" AFTER INSERT ON "backup_tasks"
  REFERENCING NEW TABLE AS new_tasks FOR EACH STATEMENT EXECUTE FUNCTION "backup_tasks_verification_count_inserted"();--> statement-breakpoint
CREATE FUNCTION "backup_tasks_verification_count_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO task_verification_counts AS c (customer_id, verification_status, n)
    SELECT customer_id, verification_status, sum(k)::int FROM (
      SELECT n.customer_id, n.verification_status, 1 AS k FROM new_tasks n JOIN old_tasks o ON o.id = n.id
       WHERE (n.customer_id, n.verification_status) IS DISTINCT FROM (o.customer_id, o.verification_status)
      UNION ALL
      SELECT o.customer_id, o.verification_status, -1 AS k FROM new_tasks n JOIN old_tasks o ON o.id = n.id
       WHERE (n.customer_id, n.verification_status) IS DISTINCT FROM (o.customer_id, o.verification_status)
    ) AS d
    GROUP BY 1, 2 HAVING sum(k) <> 0 ORDER BY 1, 2
  ON CONFLICT (customer_id, verification_status) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "backup_tasks_verification_count_updated" AFTER UPDATE ON "backup_tasks"
  REFERENCING OLD TABLE AS old_tasks NEW TABLE AS new_tasks FOR EACH STATEMENT
  EXECUTE FUNCTION "backup_tasks_verification_count_updated"();--> statement-breakpoint
CREATE FUNCTION "backup_tasks_verification_count_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE task_verification_counts c SET n = c.n - d.k
    FROM (SELECT customer_id, verification_status, count(*)::int AS k FROM old_tasks GROUP BY 1, 2) AS d
   WHERE c.customer_id = d.customer_id AND c.verification_status = d.verification_status;
  DELETE FROM task_verification_counts WHERE n = 0 AND customer_id IN (SELECT DISTINCT customer_id FROM old_tasks);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "backup_tasks_verification_count_deleted" AFTER DELETE ON "backup_tasks"
  REFERENCING OLD TABLE AS old_tasks FOR EACH STATEMENT EXECUTE FUNCTION "backup_tasks_verification_count_deleted"();--> statement-breakpoint
INSERT INTO task_verification_counts (customer_id, verification_status, n)
  SELECT customer_id, verification_status, count(*)::int FROM backup_tasks GROUP BY 1, 2;
