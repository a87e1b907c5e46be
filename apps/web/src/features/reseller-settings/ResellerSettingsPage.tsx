import {
  customerUrl,
  hasLookAndFeelMarker,
  MESSAGES,
  type ResellerSettingsSection,
  type ResellerSettingsView,
} from '@portal/domain';
import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Spinner from 'react-bootstrap/Spinner';
import Tab from 'react-bootstrap/Tab';
import Tabs from 'react-bootstrap/Tabs';
import { useLocation } from 'react-router';
import { useSession } from '../../app/session';
import { ByPathId, NotFound, Page } from '../../ui';
import { customerPagesOf } from '../customers/audience';
import { useResellerSettings } from './queries';
import { AccountSettingsForm, EmailSettingsForm, LookAndFeelForm } from './SettingsForms';

const T = MESSAGES.resellerSettings;

/** /admin/reselleradmin: the reseller's super admin edits its own settings (000 §2). */
export function ResellerSettingsPage() {
  return <ResellerSettingsScreen customerId={null} />;
}

/** /boltadmin/customers/{id}/resellersettings: the provider's view, the account section only (000 §2). */
export function ProviderResellerSettingsPage() {
  return <ByPathId param="customerId">{(customerId) => <ResellerSettingsScreen customerId={customerId} />}</ByPathId>;
}

function ResellerSettingsScreen({ customerId }: { customerId: number | null }) {
  const { actor } = useSession();
  const query = useResellerSettings(customerId);
  const { search } = useLocation();
  // The look-and-feel refresh marker opens that tab (000 §2), e.g. after a look-and-feel save reloaded the page.
  const [tab, setTab] = useState<ResellerSettingsSection>(
    hasLookAndFeelMarker(search) ? 'resellerlookandfeelsettings' : 'reselleraccountsettings',
  );
  if (query.isError || !actor) return <NotFound />;
  const settings = query.data;
  const provider = customerId !== null;
  const pages = customerPagesOf('provider');
  const breadcrumbs = provider
    ? [
        ...pages.crumbs,
        { label: pages.listTitle, href: pages.listHref },
        { label: settings?.companyName ?? '', href: customerUrl('provider', customerId) },
        { label: T.providerPageTitle },
      ]
    : [{ label: T.pageTitle }];
  return (
    <Page
      title={provider ? `${T.providerPageTitle}: ${settings?.companyName ?? ''}` : T.pageTitle}
      breadcrumbs={breadcrumbs}
    >
      {!settings ? (
        <Spinner animation="border" role="status" />
      ) : (
        <SettingsTabs settings={settings} customerId={customerId} tab={tab} onTab={setTab} role={actor.role} />
      )}
    </Page>
  );
}

function SettingsTabs({
  settings,
  customerId,
  tab,
  onTab,
  role,
}: {
  settings: ResellerSettingsView;
  customerId: number | null;
  tab: ResellerSettingsSection;
  onTab: (tab: ResellerSettingsSection) => void;
  role: Parameters<typeof AccountSettingsForm>[0]['role'];
}) {
  const editable = (section: ResellerSettingsSection) => settings.editableSections.includes(section);
  return (
    <>
      {!editable('resellerlookandfeelsettings') && <Alert variant="info">{T.providerTabsDisabled}</Alert>}
      <Tabs
        id="reseller-settings-tabs"
        className="mb-3"
        activeKey={editable(tab) ? tab : 'reselleraccountsettings'}
        onSelect={(key) => key && onTab(key as ResellerSettingsSection)}
        mountOnEnter
      >
        <Tab eventKey="reselleraccountsettings" title={T.accountTab}>
          <AccountSettingsForm settings={settings} customerId={customerId} role={role} />
        </Tab>
        <Tab
          eventKey="resellerlookandfeelsettings"
          title={T.lookAndFeelTab}
          disabled={!editable('resellerlookandfeelsettings')}
        >
          <LookAndFeelForm settings={settings} />
        </Tab>
        <Tab eventKey="reselleremailsettings" title={T.emailTab} disabled={!editable('reselleremailsettings')}>
          <EmailSettingsForm settings={settings} />
        </Tab>
      </Tabs>
    </>
  );
}
