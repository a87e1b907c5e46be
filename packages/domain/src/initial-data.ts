import type { Role } from './enums.js';

/** Branding the shell applies (000 §3 reseller settings; defaults when absent). */
export interface Branding {
  brandName: string | null;
  logo: string | null;
  favicon: string | null;
  appHeaderColour: string | null;
  appHeaderTextColour: string | null;
  appBackgroundColour: string | null;
  functionalButtonColour: string | null;
}

/** The data the served index.html carries for the page to start with (DESIGN §3, 002 §7.8). */
export interface InitialData {
  user: {
    id: number;
    firstName: string;
    surname: string;
    email: string;
    role: Role;
    customerId: number | null;
    companyName: string | null;
    boltCustomer: boolean;
    resellerEnabled: boolean;
    readOnly: boolean;
    unpaidInvoices: number;
  } | null;
  branding: Branding | null;
  version: string;
  commitId: string;
  demo: boolean;
}

export const CSRF_HEADER_NAME = 'X-CSRF-TOKEN';
export const CSRF_FIELD_NAME = '_csrf';
