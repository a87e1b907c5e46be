import type { NavEntry } from '@portal/domain';
import { Nav } from 'react-bootstrap';
import { NavLink } from 'react-router';
import { SignOutButton } from './SignOutButton';

/** A sidebar of entries; 'Sign out' posts instead of navigating. */
export function Sidebar({ entries, label }: { entries: NavEntry[]; label: string }) {
  if (entries.length === 0) return null;
  return (
    <nav className="portal-sidebar" aria-label={label}>
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
