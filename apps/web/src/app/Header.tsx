import { billingRedirectHref, brandLogoUrl, brandNameOf, INVOICES_DUE_LABEL, SHELL_TEXTS } from '@portal/domain';
import { Badge } from 'react-bootstrap';
import { Link } from 'react-router';
import { SignOutButton } from './SignOutButton';
import { useSession } from './session';
import type { SidebarMenu } from './useSidebarMenu';

/** The button that shows and hides the sidebar on a narrow screen (CSS hides it from the `md` breakpoint on). */
function MenuButton({ menu }: { menu: SidebarMenu }) {
  return (
    <button
      ref={menu.buttonRef}
      type="button"
      className="portal-menu-button btn btn-link d-md-none me-2 px-1 d-flex align-items-center gap-1"
      aria-expanded={menu.open}
      aria-controls={menu.sidebarId}
      onClick={menu.toggle}
    >
      <svg width="22" height="22" viewBox="0 0 22 22" aria-hidden="true" focusable="false">
        <path d="M3 6h16M3 11h16M3 16h16" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      </svg>
      {SHELL_TEXTS.menuButton}
    </button>
  );
}

export function Header({ admin = false, menu }: { admin?: boolean; menu?: SidebarMenu }) {
  const { data, fullName } = useSession();
  const unpaid = data.user?.unpaidInvoices ?? 0;
  return (
    <header className="portal-header d-flex flex-wrap align-items-center px-3" data-testid="header">
      {menu && <MenuButton menu={menu} />}
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
      <div className="portal-header-user ms-auto d-flex flex-wrap align-items-center column-gap-3">
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
