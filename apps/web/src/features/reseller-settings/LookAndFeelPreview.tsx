import {
  type BrandColourField,
  brandColourVariables,
  brandNameOf,
  CONTRAST_TEXTS,
  imageUrl,
  MESSAGES,
} from '@portal/domain';
import type { CSSProperties } from 'react';
import Button from 'react-bootstrap/Button';
import { chosenFile, usePreview } from './fields';

const T = CONTRAST_TEXTS;

/**
 * The look-and-feel form's live preview (issue 31): a header with the logo and brand name, the page with its text
 * and a link, and the enabled, functional and disabled buttons, painted by the same CSS variables and classes as the
 * shell, from the colours and logo as they stand in the form, before anything is saved.
 */
export function LookAndFeelPreview({
  colours,
  brandName,
  currentLogo,
  logoFiles,
}: {
  colours: Record<BrandColourField, string | null>;
  brandName: string;
  currentLogo: string | null;
  /** The logo input's value: a chosen file replaces the current logo in the preview. */
  logoFiles: unknown;
}) {
  const chosen = usePreview(chosenFile(logoFiles));
  const logo = chosen ?? (currentLogo ? imageUrl(currentLogo) : null);
  const branding = { brandName, logo: null, favicon: null, mainSiteLink: null, portalOrigin: null, ...colours };
  const name = brandNameOf(branding);
  const style = brandColourVariables(branding) as CSSProperties;
  return (
    <section
      id="look-and-feel-preview"
      className="mb-3 border rounded overflow-hidden"
      aria-label={T.previewTitle}
      data-testid="look-and-feel-preview"
    >
      <div style={style}>
        <div className="portal-header d-flex align-items-center gap-2 px-3" data-testid="preview-header">
          {logo && <img src={logo} alt={name} height={32} data-testid="preview-header-logo" />}
          <span className="portal-brand-name">{name}</span>
        </div>
        <div className="p-3" style={{ background: 'var(--portal-bg)' }} data-testid="preview-page">
          <p className="mb-2">
            {T.previewText} <a href="#look-and-feel-preview">{T.previewLink}</a>
          </p>
          <div className="d-flex flex-wrap gap-2">
            <Button variant="primary" data-testid="preview-enabled-button" tabIndex={-1}>
              {MESSAGES.resellerSettings.saveButton}
            </Button>
            <Button variant="secondary" data-testid="preview-functional-button" tabIndex={-1}>
              {T.previewFunctionalButton}
            </Button>
            <Button variant="primary" disabled data-testid="preview-disabled-button">
              {T.previewDisabledButton}
            </Button>
          </div>
        </div>
      </div>
    </section>
  );
}
