/** Layout constants of 000 §2, §9 and 002 §2.2. */
export const APP_TITLE = 'Cloud Portal';
export const ADMIN_AREA_TITLE = 'Cloud Portal > Admin Area';
export const INVOICES_DUE_LABEL = 'Invoices due';

/** Ours (issue 31): a browser tab names its page, then the brand (or the admin area's title) it belongs to. */
export const documentTitle = (page: string | undefined, brand: string): string => (page ? `${page} · ${brand}` : brand);

export const DEFAULT_COLOURS = {
  headerText: '#4b4b4d',
  header: '#f8f9fa',
  background: '#fff',
  functionalButton: '#b1b1b1',
} as const;

export const TIMINGS = {
  toastMs: 2000,
  loadingIndicatorLingerMs: 1000,
  tableRefreshMs: 500,
  templateListRefreshMs: 2000,
  customerListRefreshMs: 2000,
  /** Ours: a search box asks the server once typing pauses this long. */
  searchDebounceMs: 300,
} as const;
