import { billingRedirectHref, brandLogoUrl, brandNameOf, INVOICES_DUE_LABEL } from '@portal/domain';
import { Badge } from 'react-bootstrap';
import { Link } from 'react-router';
import { SignOutButton } from './SignOutButton';
import { useSession } from './session';

export function Header({ admin = false }: { admin?: boolean }) {
  const { data, fullName } = useSession();
  const unpaid = data.user?.unpaidInvoices ?? 0;
  return (
    <header className="portal-header d-flex align-items-center px-3" data-testid="header">
      <Link to="/" className="portal-logo me-3 d-flex align-items-center text-decoration-none" aria-label="Home">
        <img src={brandLogoUrl(data.branding)} alt={brandNameOf(data.branding)} height={36} />
        {data.branding && !data.branding.logo && (
          // The generic logo is an icon only; the brand's name beside it takes the header text colour.
          <span className="portal-brand-name ms-2">{brandNameOf(data.branding)}</span>
        )}
      </Link>
      {admin && (
        <span className="small text-body-secondary me-3" data-testid="version">
          Version {data.version} ({data.commitId})
        </span>
      )}
      <div className="ms-auto d-flex align-items-center gap-3">
        {unpaid > 0 && (
          <a href={billingRedirectHref('masspay')} className="text-decoration-none" data-testid="invoices-due">
            <Badge bg="danger">
              {INVOICES_DUE_LABEL} <span className="ms-1">{unpaid}</span>
            </Badge>
          </a>
        )}
        <span className="fw-semibold" data-testid="user-full-name">
          {fullName}
        </span>
        <Link to="/profile" className="portal-header-link">
          Profile
        </Link>
        <SignOutButton className="portal-header-link p-0" />
      </div>
    </header>
  );
}
