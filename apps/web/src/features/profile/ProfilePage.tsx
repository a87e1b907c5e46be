import {
  type ActivityRow,
  AUDIT_EVENT_TEXTS,
  type AuditEventType,
  MESSAGES,
  MFA_TEXTS,
  PAGES,
  ROUTES,
} from '@portal/domain';
import { Card, Col, Row, Spinner } from 'react-bootstrap';
import { routeCall } from '../../app/api';
import { DataTable, Page, usePagedQuery, useTableState } from '../../ui';
import { MfaSection } from '../mfa/MfaSection';
import { ApiTokensSection } from './ApiTokensSection';
import { PasswordChangeForm } from './PasswordChangeForm';
import { ProfileDetailsForm } from './ProfileDetailsForm';
import { profileKeys, useProfile } from './queries';

function ActivityTable() {
  const table = useTableState({ size: 10 });
  const activity = usePagedQuery(profileKeys.activity(), routeCall(ROUTES.profile.activity, {}), table.params);
  return (
    <DataTable<ActivityRow>
      aria-label="Account activity"
      columns={[
        { key: 'at', header: 'Time', render: (row) => new Date(row.at).toLocaleString() },
        { key: 'type', header: 'Event', render: (row) => AUDIT_EVENT_TEXTS[row.type as AuditEventType] ?? row.type },
        { key: 'ip', header: 'Address', render: (row) => row.ipAddress ?? '' },
      ]}
      rows={activity.rows}
      rowKey={(row) => row.id}
      totalElements={activity.totalElements}
      page={table.page}
      size={table.size}
      onPageChange={table.setPage}
      loading={activity.loading}
      emptyText="No account activity yet"
    />
  );
}

export function ProfilePage() {
  const profile = useProfile();
  return (
    <Page
      title="Profile"
      breadcrumbs={[{ label: 'Dashboard', href: PAGES.dashboard }, { label: 'Profile' }]}
      subtitle={
        profile.data
          ? `${profile.data.roleName}${profile.data.companyName ? ` at ${profile.data.companyName}` : ''}`
          : undefined
      }
    >
      {profile.isPending ? (
        <Spinner animation="border" role="status" />
      ) : profile.data ? (
        <Row className="g-4">
          <Col lg={6}>
            <Card>
              <Card.Header as="h2" className="h6 mb-0">
                Details
              </Card.Header>
              <Card.Body>
                <ProfileDetailsForm profile={profile.data} />
              </Card.Body>
            </Card>
          </Col>
          <Col lg={6}>
            <Card>
              <Card.Header as="h2" className="h6 mb-0">
                Password
              </Card.Header>
              <Card.Body>
                <PasswordChangeForm />
              </Card.Body>
            </Card>
          </Col>
          <Col lg={6}>
            <Card>
              <Card.Header as="h2" className="h6 mb-0">
                {MFA_TEXTS.sectionTitle}
              </Card.Header>
              <Card.Body>
                <MfaSection />
              </Card.Body>
            </Card>
          </Col>
          <Col xs={12}>
            <Card>
              <Card.Header as="h2" className="h6 mb-0">
                API tokens
              </Card.Header>
              <Card.Body>
                <ApiTokensSection />
              </Card.Body>
            </Card>
          </Col>
          <Col xs={12}>
            <Card>
              <Card.Header as="h2" className="h6 mb-0">
                Account activity
              </Card.Header>
              <Card.Body>
                <ActivityTable />
              </Card.Body>
            </Card>
          </Col>
        </Row>
      ) : (
        <p className="text-danger">{MESSAGES.communicationError}</p>
      )}
    </Page>
  );
}
