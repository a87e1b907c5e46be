import {
  type ActivityRow,
  API_TOKEN_SECTION_TITLE,
  AUDIT_EVENT_TEXTS,
  type AuditEventType,
  MESSAGES,
  MFA_TEXTS,
  PAGES,
  ROUTES,
} from '@portal/domain';
import type { ReactNode } from 'react';
import { Card, Col, Row, Spinner } from 'react-bootstrap';
import { routeCall } from '../../app/api';
import { localDateTime, Page, ServerPagedTable, usePagedQuery, useTableState } from '../../ui';
import { MfaSection } from '../mfa/MfaSection';
import { ApiTokensSection } from './ApiTokensSection';
import { PasswordChangeForm } from './PasswordChangeForm';
import { ProfileDetailsForm } from './ProfileDetailsForm';
import { profileKeys, useProfile } from './queries';

function ActivityTable() {
  const table = useTableState({ size: 10 });
  const activity = usePagedQuery(profileKeys.activity(), routeCall(ROUTES.profile.activity, {}), table.params);
  return (
    <ServerPagedTable<ActivityRow>
      aria-label="Account activity"
      columns={[
        { key: 'at', header: 'Time', render: (row) => localDateTime(row.at) },
        { key: 'type', header: 'Event', render: (row) => AUDIT_EVENT_TEXTS[row.type as AuditEventType] ?? row.type },
        { key: 'ip', header: 'Address', render: (row) => row.ipAddress ?? '' },
      ]}
      table={table}
      list={activity}
      rowKey={(row) => row.id}
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
          <ProfileSection title="Details" width="half">
            <ProfileDetailsForm profile={profile.data} />
          </ProfileSection>
          <ProfileSection title="Password" width="half">
            <PasswordChangeForm />
          </ProfileSection>
          <ProfileSection title={MFA_TEXTS.sectionTitle} width="half">
            <MfaSection />
          </ProfileSection>
          <ProfileSection title={API_TOKEN_SECTION_TITLE} width="full">
            <ApiTokensSection />
          </ProfileSection>
          <ProfileSection title="Account activity" width="full">
            <ActivityTable />
          </ProfileSection>
        </Row>
      ) : (
        <p className="text-danger">{MESSAGES.communicationError}</p>
      )}
    </Page>
  );
}

/** One card of the profile page: half the width on large screens, or the whole. */
function ProfileSection({ title, width, children }: { title: string; width: 'half' | 'full'; children: ReactNode }) {
  return (
    <Col {...(width === 'half' ? { lg: 6 } : { xs: 12 })}>
      <Card>
        <Card.Header as="h2" className="h6 mb-0">
          {title}
        </Card.Header>
        <Card.Body>{children}</Card.Body>
      </Card>
    </Col>
  );
}
