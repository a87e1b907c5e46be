import { APP_TITLE, brandLogoUrl } from '@portal/domain';
import { type ReactNode, useEffect } from 'react';
import { Card } from 'react-bootstrap';
import { brandingStyle } from '../../app/branding';
import { useSession } from '../../app/session';

/** The wrapper of the sign-in pages: the brand's background colour, else white (000 §2). */
export function PublicLayout({ title, children }: { title: string; children: ReactNode }) {
  const { data } = useSession();
  useEffect(() => {
    document.title = `${title} - ${APP_TITLE}`;
  }, [title]);
  return (
    <div
      className={`login-wrapper ${data.branding ? 'reseller-styling' : 'provider-styling'}`}
      style={brandingStyle(data.branding)}
    >
      <Card className="login-card shadow-sm">
        <Card.Body className="p-4">
          <div className="text-center mb-3">
            <img src={brandLogoUrl(data.branding)} alt={APP_TITLE} height={48} />
          </div>
          <h1 className="h4 text-center mb-3">{title}</h1>
          {children}
        </Card.Body>
      </Card>
    </div>
  );
}
