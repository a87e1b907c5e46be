import { brandLogoUrl, brandNameOf, loginWrapperClass } from '@portal/domain';
import type { ReactNode } from 'react';
import { Card } from 'react-bootstrap';
import { brandingStyle, useBrandedDocument } from '../../app/branding';
import { useSession } from '../../app/session';

/**
 * The wrapper of the sign-in pages (000 §2): the brand's background colour, else white, and a reseller's or
 * the provider's styling class; before sign-in the brand is the host's (a reseller's custom URL).
 */
export function PublicLayout({ title, children }: { title: string; children: ReactNode }) {
  const { data } = useSession();
  const brand = brandNameOf(data.branding);
  useBrandedDocument(data.branding, title);
  return (
    <div className={loginWrapperClass(data.branding)} style={brandingStyle(data.branding)} data-testid="login-wrapper">
      <Card className="login-card shadow-sm">
        <Card.Body className="p-4">
          <div className="text-center mb-3">
            <img src={brandLogoUrl(data.branding)} alt={brand} height={48} />
            <div className="small text-body-secondary mt-2" data-testid="brand-name">
              {brand}
            </div>
          </div>
          <h1 className="h4 text-center mb-3">{title}</h1>
          {children}
        </Card.Body>
      </Card>
    </div>
  );
}
