/** Test-only: a reseller's full brand (like the demo's Northwind) for the branding tests. */
import type { Branding } from '../initial-data.js';

export function testBranding(overrides: Partial<Branding> = {}): Branding {
  return {
    brandName: 'Northwind Cloud Backup',
    logo: 'northwind-logo.png',
    favicon: 'northwind-favicon.png',
    appHeaderColour: '#1b3a5c',
    appHeaderTextColour: '#ffffff',
    appBackgroundColour: '#f3f6fa',
    functionalBackgroundColour: '#e8eef5',
    functionalButtonColour: '#2a7de1',
    appEnabledButtonColour: '#2a7de1',
    appDisabledButtonColour: '#a7b4c2',
    mainSiteLink: 'https://www.northwind.test',
    portalOrigin: 'https://backup.northwind.test',
    ...overrides,
  };
}
