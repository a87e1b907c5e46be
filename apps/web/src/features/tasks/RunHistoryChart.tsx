import {
  type Audience,
  formatBytes,
  formatDuration,
  RUN_CHART_RUNS,
  RUN_REPORT_TEXTS,
  type RunChartPoint,
  runChartPoints,
} from '@portal/domain';
import { useQuery } from '@tanstack/react-query';
import { getResult } from '../../app/api';
import { BarChart, localDateTime } from '../../ui';
import { actionsCall, type TaskRef, taskKeys } from './queries';

const TEXT = RUN_REPORT_TEXTS;

/** The task's last runs (issue 31): duration and bytes added of each finished backup run, oldest on the left. */
export function RunHistoryChart({ audience, taskRef }: { audience: Audience; taskRef: TaskRef }) {
  const runs = useQuery({
    // Under the task's key, so a run's live change refreshes the chart with the rest of the page.
    queryKey: [...taskKeys.task(taskRef.machineId, taskRef.taskId), 'runChart', audience],
    queryFn: () => getResult(actionsCall(audience, taskRef), { type: 'BACKUP_RUN', page: 0, size: RUN_CHART_RUNS }),
    retry: false,
  });
  if (!runs.data) return null;
  const points = runChartPoints(runs.data.elements);
  if (points.length === 0) return <p className="text-muted small mb-0">{TEXT.chartEmpty}</p>;
  const bars = (value: (p: RunChartPoint) => number, text: (n: number) => string) =>
    points.map((point) => ({
      key: point.id,
      value: value(point),
      label: TEXT.chartBar(localDateTime(point.timeStarted), text(value(point))),
    }));
  const largest = (value: (p: RunChartPoint) => number) => Math.max(...points.map(value));
  return (
    <div className="d-flex flex-wrap gap-4" data-testid="run-chart">
      <BarChart
        title={TEXT.chartDuration}
        data={bars((p) => p.durationMs, formatDuration)}
        slots={RUN_CHART_RUNS}
        maxText={formatDuration(largest((p) => p.durationMs))}
      />
      <BarChart
        title={TEXT.chartBytesAdded}
        data={bars((p) => p.bytesAdded, formatBytes)}
        slots={RUN_CHART_RUNS}
        maxText={formatBytes(largest((p) => p.bytesAdded))}
      />
    </div>
  );
}
