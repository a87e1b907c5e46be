import {
  MESSAGES,
  PAGES,
  ROUTES,
  VERIFICATION_REPORT_TEXTS as TEXT,
  type VerificationPeriodQuery,
} from '@portal/domain';
import { useSearchParams } from 'react-router';
import { useSession } from '../../app/session';
import { Page, Section } from '../../ui';
import { VerificationReportDownloads } from './VerificationReportDownloads';

const R = ROUTES.verificationReport;

export interface VerificationReportPageProps {
  /**
   * account: a customer super admin's own report (/admin/account/verificationreport), with a reseller's roll-up
   * over its customers; provider: the roll-up over every customer (/boltadmin/verificationreport).
   */
  audience: 'account' | 'provider';
}

/** The verification report page (issue 32 item 4): a period and the two downloads, per report the caller has. */
export function VerificationReportPage({ audience }: VerificationReportPageProps) {
  const { actor } = useSession();
  const [address] = useSearchParams();
  // The monthly mail links here with its month as ?from=&to=.
  const initial: VerificationPeriodQuery = {
    ...(address.get('from') ? { from: address.get('from') ?? undefined } : {}),
    ...(address.get('to') ? { to: address.get('to') ?? undefined } : {}),
  };
  const provider = audience === 'provider';
  /** A section of one report's downloads: the caller's own tasks, or the roll-up of its customers. */
  const reportSection = (kind: 'own' | 'rollup', title: string, subtitle?: string) => (
    <Section title={title}>
      {subtitle && <p className="text-muted">{subtitle}</p>}
      <VerificationReportDownloads
        csvPath={(kind === 'own' ? R.ownCsv : R.rollupCsv).build()}
        pdfPath={(kind === 'own' ? R.ownPdf : R.rollupPdf).build()}
        initial={initial}
        testId={`verification-${kind}`}
      />
    </Section>
  );
  const rollup = reportSection('rollup', TEXT.rollupTitle, TEXT.rollupSubtitle);
  return (
    <Page
      title={TEXT.title}
      subtitle={TEXT.subtitle}
      breadcrumbs={
        provider
          ? [{ label: MESSAGES.customer.adminAreaCrumb, href: PAGES.providerCustomers }, { label: TEXT.title }]
          : [
              { label: MESSAGES.customer.dashboardCrumb, href: PAGES.dashboard },
              { label: MESSAGES.account.title, href: PAGES.account },
              { label: TEXT.title },
            ]
      }
    >
      {provider ? (
        rollup
      ) : (
        <>
          {reportSection('own', TEXT.ownSection)}
          {actor?.resellerEnabled === true && rollup}
        </>
      )}
    </Page>
  );
}
