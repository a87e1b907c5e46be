import type { NavEntry } from '@portal/domain';
import { Nav } from 'react-bootstrap';
import { NavLink } from 'react-router';
import { SignOutButton } from './SignOutButton';
import type { SidebarMenu } from './useSidebarMenu';

/**
 * A sidebar of entries; 'Sign out' posts instead of navigating. On a narrow screen it shows only while the header's
 * menu button has it open (`menu`).
 */
export function Sidebar({ entries, label, menu }: { entries: NavEntry[]; label: string; menu?: SidebarMenu }) {
  if (entries.length === 0) return null;
  return (
    <nav id={menu?.sidebarId} className={menu?.open ? 'portal-sidebar open' : 'portal-sidebar'} aria-label={label}>
      <Nav className="flex-column">
        {entries.map((entry) =>
          entry.href === '/logout' ? (
            <SignOutButton key={entry.href} className="nav-link text-start" label={entry.label} />
          ) : (
            <Nav.Item key={entry.href}>
              <NavLink to={entry.href} end={entry.href === '/'} className="nav-link">
                {entry.label}
              </NavLink>
            </Nav.Item>
          ),
        )}
      </Nav>
    </nav>
  );
}
