import { ADMIN_AREA_TITLE, adminAreaEntries, brandNameOf, PAGES, SHELL_TEXTS, sidebarEntries } from '@portal/domain';
import { useLayoutEffect } from 'react';
import { Link, Outlet } from 'react-router';
import { AfterFirstPaint, PageTitleSuffix } from '../ui';
import { brandingStyle, useBrandedDocument } from './branding';
import { Header } from './Header';
import { Sidebar } from './Sidebar';
import { useSession } from './session';
import { useSidebarMenu } from './useSidebarMenu';

/**
 * The page's screen, once the shell around it has painted (issue 31, phones): its code is loaded by the route, and on
 * a phone's network its requests made beside the entry's first render held back the first paint of the header (the
 * dashboard's largest paint, its logo). Later pages of the same shell render at once: it stays mounted.
 */
function ShellOutlet() {
  return (
    <AfterFirstPaint>
      <Outlet />
    </AfterFirstPaint>
  );
}

/**
 * The page layout of 000 §2: header, sidebar, and the page (breadcrumbs, heading, actions) in the outlet. On a narrow
 * screen the sidebar folds away behind the header's menu button (issue 31).
 */
export function Shell() {
  const { data, actor } = useSession();
  const menu = useSidebarMenu();
  useBrandedDocument(data.branding);
  return (
    <div className="portal" style={brandingStyle(data.branding)}>
      <Header menu={menu} />
      <div className="portal-body">
        <Sidebar entries={sidebarEntries(actor)} label="Main menu" menu={menu} />
        <main className="portal-main">
          <PageTitleSuffix.Provider value={brandNameOf(data.branding)}>
            <ShellOutlet />
          </PageTitleSuffix.Provider>
        </main>
      </div>
    </div>
  );
}

/**
 * The admin area shell of 002 §2.2 (provider admins): its own title, links, version and commit id; in demo
 * mode also the way to the demo mailbox, which only provider admins may read.
 */
export function AdminShell() {
  const { data, actor } = useSession();
  const menu = useSidebarMenu();
  // Before the page's own effect, which puts its name in front (ui/Page).
  useLayoutEffect(() => {
    document.title = ADMIN_AREA_TITLE;
  }, []);
  return (
    <div className="portal portal-admin" style={brandingStyle(data.branding)}>
      <Header admin menu={menu} />
      <div className="portal-body">
        <Sidebar entries={adminAreaEntries(actor)} label="Admin area menu" menu={menu} />
        <main className="portal-main">
          <div className="small text-body-secondary mb-2" data-testid="admin-area-title">
            {ADMIN_AREA_TITLE}
          </div>
          {data.demo && (
            <div className="small mb-2">
              <Link to={PAGES.demoMails}>{SHELL_TEXTS.demoMailsTitle}</Link>
            </div>
          )}
          <PageTitleSuffix.Provider value={ADMIN_AREA_TITLE}>
            <ShellOutlet />
          </PageTitleSuffix.Provider>
        </main>
      </div>
    </div>
  );
}
