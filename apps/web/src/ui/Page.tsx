import { documentTitle } from '@portal/domain';
import { createContext, type ReactNode, useContext, useEffect, useId } from 'react';
import Breadcrumb from 'react-bootstrap/Breadcrumb';
import { Link } from 'react-router';

export interface Crumb {
  label: ReactNode;
  /** Leave out for the current page (the last crumb). */
  href?: string;
}

/**
 * What a page's browser tab title ends with: the brand as the header shows it (the shell), or the admin area's
 * title. Outside a shell (a page rendered alone) no page names the tab.
 */
export const PageTitleSuffix = createContext<string | null>(null);

export interface PageProps {
  title: ReactNode;
  /** The page's name in the browser tab when its title is not plain text. */
  tabTitle?: string;
  breadcrumbs?: Crumb[];
  subtitle?: ReactNode;
  icon?: ReactNode;
  /** The page-action slot on the right of the heading (000 §2 'Page layout'). */
  actions?: ReactNode;
  children?: ReactNode;
}

/**
 * The frame of a page inside the shell: breadcrumbs, heading with subtitle and icon, page actions; it names the
 * browser tab '<page> · <brand>' (issue 31).
 */
export function Page({ title, tabTitle, breadcrumbs = [], subtitle, icon, actions, children }: PageProps) {
  const headingId = useId();
  const suffix = useContext(PageTitleSuffix);
  const name = tabTitle ?? (typeof title === 'string' ? title : undefined);
  useEffect(() => {
    if (suffix !== null) document.title = documentTitle(name, suffix);
  }, [name, suffix]);
  return (
    <section aria-labelledby={headingId} data-testid="page">
      {breadcrumbs.length > 0 && (
        <Breadcrumb data-testid="breadcrumbs">
          {breadcrumbs.map((crumb, index) => {
            const current = index === breadcrumbs.length - 1;
            // Links go through the router so moving between pages does not reload the app.
            return crumb.href !== undefined && !current ? (
              // biome-ignore lint/suspicious/noArrayIndexKey: crumbs are positional and labels may be elements
              <Breadcrumb.Item key={index} linkAs={Link} linkProps={{ to: crumb.href }}>
                {crumb.label}
              </Breadcrumb.Item>
            ) : (
              // biome-ignore lint/suspicious/noArrayIndexKey: as above
              <Breadcrumb.Item key={index} active={current}>
                {crumb.label}
              </Breadcrumb.Item>
            );
          })}
        </Breadcrumb>
      )}
      <div className="d-flex flex-wrap align-items-start gap-3 mb-3">
        <div className="flex-grow-1">
          <h1 id={headingId} className="h3 mb-0 d-flex align-items-center gap-2">
            {icon !== undefined && <span aria-hidden="true">{icon}</span>}
            {title}
          </h1>
          {subtitle !== undefined && (
            <p className="text-muted mb-0 mt-1" data-testid="page-subtitle">
              {subtitle}
            </p>
          )}
        </div>
        {actions !== undefined && (
          <div className="d-flex flex-wrap gap-2" data-testid="page-actions">
            {actions}
          </div>
        )}
      </div>
      {children}
    </section>
  );
}
