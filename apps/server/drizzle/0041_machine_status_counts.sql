CREATE TABLE "machine_status_counts" (
	"stripe" smallint NOT NULL,
	"task_status" "aggregate_task_status" NOT NULL,
	"status" "machine_status" NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "machine_status_counts_stripe_task_status_status_pk" PRIMARY KEY("stripe","task_status","status")
);
--> statement-breakpoint
-- machine_status_counts is kept by the database (statement triggers with transition tables, as task_status_counts
-- in 0010), so every code path that adds, changes or removes machines (the read model's upkeep, linking, a
-- customer's deletion by cascade, the seeds) keeps the provider's all-machines pies right, and a bulk statement
-- costs one grouped write. Rows are written in key order (no deadlocks within a statement). An update that moves
-- no machine's (customer, task status, status), such as a presence change, writes nothing.
CREATE FUNCTION "backup_machines_count_statuses"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO machine_status_counts AS c (stripe, task_status, status, n)
      SELECT customer_id % 32, task_status, status, count(*)::int FROM new_machines GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (stripe, task_status, status) DO UPDATE SET n = c.n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO machine_status_counts AS c (stripe, task_status, status, n)
      SELECT customer_id % 32, task_status, status, -count(*)::int FROM old_machines GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (stripe, task_status, status) DO UPDATE SET n = c.n + excluded.n;
  ELSE
    INSERT INTO machine_status_counts AS c (stripe, task_status, status, n)
      SELECT stripe, task_status, status, sum(k)::int FROM (
        SELECT n.customer_id % 32 AS stripe, n.task_status, n.status, 1 AS k
          FROM new_machines n JOIN old_machines o ON o.id = n.id
         WHERE (n.customer_id, n.task_status, n.status) IS DISTINCT FROM (o.customer_id, o.task_status, o.status)
        UNION ALL
        SELECT o.customer_id % 32, o.task_status, o.status, -1
          FROM new_machines n JOIN old_machines o ON o.id = n.id
         WHERE (n.customer_id, n.task_status, n.status) IS DISTINCT FROM (o.customer_id, o.task_status, o.status)
      ) AS d
      GROUP BY 1, 2, 3 HAVING sum(k) <> 0 ORDER BY 1, 2, 3
    ON CONFLICT (stripe, task_status, status) DO UPDATE SET n = c.n + excluded.n;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "backup_machines_count_inserted" AFTER INSERT ON "backup_machines"
  REFERENCING NEW TABLE AS new_machines FOR EACH STATEMENT EXECUTE FUNCTION "backup_machines_count_statuses"();--> statement-breakpoint
CREATE TRIGGER "backup_machines_count_updated" AFTER UPDATE ON "backup_machines"
  REFERENCING OLD TABLE AS old_machines NEW TABLE AS new_machines FOR EACH STATEMENT
  EXECUTE FUNCTION "backup_machines_count_statuses"();--> statement-breakpoint
CREATE TRIGGER "backup_machines_count_deleted" AFTER DELETE ON "backup_machines"
  REFERENCING OLD TABLE AS old_machines FOR EACH STATEMENT EXECUTE FUNCTION "backup_machines_count_statuses"();--> statement-breakpoint
INSERT INTO machine_status_counts (stripe, task_status, status, n)
  SELECT customer_id % 32, task_status, status, count(*)::int FROM backup_machines GROUP BY 1, 2, 3;
