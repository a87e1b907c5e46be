import { PAGES, SHELL_TEXTS } from '@portal/domain';
import { Link } from 'react-router';
import { Page } from './Page';

/** Content for an address that matches no page (the server also answers it with 404). */
export function NotFound() {
  return (
    <Page title="Page not found">
      <p>{SHELL_TEXTS.notFound}</p>
      <Link to={PAGES.dashboard}>Go to the dashboard</Link>
    </Page>
  );
}
