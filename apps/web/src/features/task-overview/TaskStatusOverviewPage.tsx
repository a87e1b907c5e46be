import { Page } from '../../ui';

// SKELETON (helper "task-overview" replaces): /boltadmin/backuptasks/statusoverview.
export function TaskStatusOverviewPage() {
  return <Page title="Task Status Overview" />;
}
