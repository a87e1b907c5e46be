import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWith, signedInData, testBranding } from '../../app/testing';
import { PublicLayout } from './PublicLayout';

const signedOut = (branding: ReturnType<typeof testBranding> | null) => ({ ...signedInData(), user: null, branding });

function renderLayout(branding: ReturnType<typeof testBranding> | null) {
  renderWith(
    <PublicLayout title="Sign in">
      <button type="submit" className="btn btn-primary">
        Sign in
      </button>
    </PublicLayout>,
    signedOut(branding),
  );
  return screen.getByTestId('login-wrapper');
}

describe('the sign-in pages wrapper (000 §2)', () => {
  it("takes a reseller's background colour, styling class, logo, brand name, title and favicon", () => {
    const wrapper = renderLayout(testBranding());
    expect(wrapper).toHaveClass('login-wrapper', 'reseller-styling');
    expect(wrapper).not.toHaveClass('provider-styling');
    expect(wrapper.style.getPropertyValue('--portal-bg')).toBe('#f3f6fa');
    expect(wrapper.style.getPropertyValue('--portal-button-enabled')).toBe('#2a7de1');
    expect(screen.getByRole('img', { name: 'Northwind Cloud Backup' })).toHaveAttribute(
      'src',
      '/public/downloads/img/northwind-logo.png',
    );
    expect(screen.getByTestId('brand-name')).toHaveTextContent('Northwind Cloud Backup');
    expect(document.title).toBe('Sign in · Northwind Cloud Backup');
    expect(document.head.querySelector('link[rel="icon"]')).toHaveAttribute(
      'href',
      '/public/downloads/img/northwind-favicon.png',
    );
  });

  it("is white with the provider's styling class, logo and name without a brand", () => {
    const wrapper = renderLayout(null);
    expect(wrapper).toHaveClass('login-wrapper', 'provider-styling');
    expect(wrapper.style.getPropertyValue('--portal-bg')).toBe('#fff');
    expect(wrapper.style.getPropertyValue('--portal-button-enabled')).toBe('');
    expect(screen.getByRole('img', { name: 'Cloud Portal' })).toHaveAttribute('src', '/img/logo.png');
    expect(document.title).toBe('Sign in · Cloud Portal');
    expect(document.head.querySelector('link[rel="icon"]')).toHaveAttribute('href', '/img/favicon.png');
  });

  it('never lets a stored value that is not a colour into the style', () => {
    const wrapper = renderLayout(testBranding({ appBackgroundColour: 'url(//tracker.test/x)' }));
    expect(wrapper.style.getPropertyValue('--portal-bg')).toBe('#fff');
    expect(wrapper.getAttribute('style')).not.toContain('url(');
  });
});
