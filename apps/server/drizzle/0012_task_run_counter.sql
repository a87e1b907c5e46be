DROP INDEX "backup_snapshots_task_idx";--> statement-breakpoint
DROP INDEX "task_actions_task_idx";--> statement-breakpoint
ALTER TABLE "backup_tasks" ADD COLUMN "number_of_backup_runs" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "task_actions_task_type_idx" ON "task_actions" USING btree ("backup_task_id","type","time_started" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "backup_snapshots_task_idx" ON "backup_snapshots" USING btree ("backup_task_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "task_actions_task_idx" ON "task_actions" USING btree ("backup_task_id","time_started" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
-- number_of_backup_runs is kept by the database, so every code path that adds or removes runs (agent
-- events, seeding, the demo, the deletion of a task, machine or customer by cascade) keeps it equal to the
-- count of the task's BACKUP_RUN actions, and a bulk statement costs one grouped write per task.
CREATE FUNCTION "task_actions_count_runs"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE backup_tasks t SET number_of_backup_runs = t.number_of_backup_runs + d.k
    FROM (SELECT backup_task_id, CASE TG_OP WHEN 'INSERT' THEN 1 ELSE -1 END * count(*)::int AS k
            FROM changed_actions WHERE type = 'BACKUP_RUN' GROUP BY 1) AS d
   WHERE t.id = d.backup_task_id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "task_actions_count_inserted" AFTER INSERT ON "task_actions"
  REFERENCING NEW TABLE AS changed_actions FOR EACH STATEMENT EXECUTE FUNCTION "task_actions_count_runs"();--> statement-breakpoint
-- A task deleted with its runs is gone when this runs: its row is simply not found.
CREATE TRIGGER "task_actions_count_deleted" AFTER DELETE ON "task_actions"
  REFERENCING OLD TABLE AS changed_actions FOR EACH STATEMENT EXECUTE FUNCTION "task_actions_count_runs"();--> statement-breakpoint
-- No code moves an action to another task or type; should it, the counts follow. A row trigger with a WHEN
-- clause, so the frequent progress updates do not run it.
CREATE FUNCTION "task_actions_count_moved"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE backup_tasks SET number_of_backup_runs = number_of_backup_runs - 1
   WHERE id = OLD.backup_task_id AND OLD.type = 'BACKUP_RUN';
  UPDATE backup_tasks SET number_of_backup_runs = number_of_backup_runs + 1
   WHERE id = NEW.backup_task_id AND NEW.type = 'BACKUP_RUN';
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "task_actions_count_moved" AFTER UPDATE OF backup_task_id, type ON "task_actions"
  FOR EACH ROW WHEN (OLD.backup_task_id IS DISTINCT FROM NEW.backup_task_id OR OLD.type IS DISTINCT FROM NEW.type)
  EXECUTE FUNCTION "task_actions_count_moved"();--> statement-breakpoint
UPDATE backup_tasks t SET number_of_backup_runs = d.k
  FROM (SELECT backup_task_id, count(*)::int AS k FROM task_actions WHERE type = 'BACKUP_RUN' GROUP BY 1) AS d
 WHERE t.id = d.backup_task_id;
