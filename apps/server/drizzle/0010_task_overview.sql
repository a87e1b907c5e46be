CREATE TABLE "task_status_counts" (
	"customer_id" integer NOT NULL,
	"display_status" "task_display_status" NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "task_status_counts_customer_id_display_status_pk" PRIMARY KEY("customer_id","display_status")
);
--> statement-breakpoint
CREATE INDEX "backup_tasks_being_deleted_idx" ON "backup_tasks" USING btree ("id") WHERE "backup_tasks"."status" = 'BEING_DELETED';--> statement-breakpoint
CREATE INDEX "backup_tasks_next_period_idx" ON "backup_tasks" USING btree ("next_run_at","id") WHERE "backup_tasks"."status" = 'ACTIVE';
--> statement-breakpoint
-- task_status_counts is kept by the database (statement triggers with transition tables), so every code
-- path that adds, changes or removes tasks keeps the provider's task status pie right, and a bulk
-- statement costs one grouped write, not one per task. Rows are written in key order (no deadlocks).
CREATE FUNCTION "backup_tasks_count_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO task_status_counts AS c (customer_id, display_status, n)
    SELECT customer_id, display_status, count(*)::int FROM new_tasks GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT (customer_id, display_status) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "backup_tasks_count_inserted" AFTER INSERT ON "backup_tasks"
  REFERENCING NEW TABLE AS new_tasks FOR EACH STATEMENT EXECUTE FUNCTION "backup_tasks_count_inserted"();--> statement-breakpoint
CREATE FUNCTION "backup_tasks_count_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO task_status_counts AS c (customer_id, display_status, n)
    SELECT customer_id, display_status, sum(k)::int FROM (
      SELECT n.customer_id, n.display_status, 1 AS k FROM new_tasks n JOIN old_tasks o ON o.id = n.id
       WHERE (n.customer_id, n.display_status) IS DISTINCT FROM (o.customer_id, o.display_status)
      UNION ALL
      SELECT o.customer_id, o.display_status, -1 AS k FROM new_tasks n JOIN old_tasks o ON o.id = n.id
       WHERE (n.customer_id, n.display_status) IS DISTINCT FROM (o.customer_id, o.display_status)
    ) AS d
    GROUP BY 1, 2 HAVING sum(k) <> 0 ORDER BY 1, 2
  ON CONFLICT (customer_id, display_status) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "backup_tasks_count_updated" AFTER UPDATE ON "backup_tasks"
  REFERENCING OLD TABLE AS old_tasks NEW TABLE AS new_tasks FOR EACH STATEMENT
  EXECUTE FUNCTION "backup_tasks_count_updated"();--> statement-breakpoint
CREATE FUNCTION "backup_tasks_count_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE task_status_counts c SET n = c.n - d.k
    FROM (SELECT customer_id, display_status, count(*)::int AS k FROM old_tasks GROUP BY 1, 2) AS d
   WHERE c.customer_id = d.customer_id AND c.display_status = d.display_status;
  DELETE FROM task_status_counts WHERE n = 0 AND customer_id IN (SELECT DISTINCT customer_id FROM old_tasks);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "backup_tasks_count_deleted" AFTER DELETE ON "backup_tasks"
  REFERENCING OLD TABLE AS old_tasks FOR EACH STATEMENT EXECUTE FUNCTION "backup_tasks_count_deleted"();--> statement-breakpoint
INSERT INTO task_status_counts (customer_id, display_status, n)
  SELECT customer_id, display_status, count(*)::int FROM backup_tasks GROUP BY 1, 2;
