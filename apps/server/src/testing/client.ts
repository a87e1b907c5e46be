import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';

/** The sign-in form's POST as the login page sends it: its fields URL-encoded (the CSRF token is one of them). */
export function signInPost(fields: Record<string, string>, headers: Record<string, string> = {}): InjectOptions {
  return {
    method: 'POST',
    url: '/login',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: new URLSearchParams(fields).toString(),
  };
}

/**
 * A browser-like client over app.inject: keeps cookies, reads the CSRF token from the served page
 * and sends it the way the web app does.
 */
export class TestClient {
  private readonly cookies = new Map<string, string>();
  csrf = '';

  constructor(private readonly app: FastifyInstance) {}

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  private remember(response: LightMyRequestResponse): void {
    for (const c of response.cookies) {
      const expired = c.expires instanceof Date && c.expires.getTime() <= Date.now();
      if (c.value === '' || expired || c.maxAge === 0) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
  }

  async request(options: InjectOptions): Promise<LightMyRequestResponse> {
    const headers = { ...(options.headers ?? {}), cookie: this.cookieHeader() };
    const response = await this.app.inject({ ...options, headers });
    this.remember(response);
    return response;
  }

  /** Opens a page as a browser navigation and picks up its CSRF token. */
  async open(url = '/login'): Promise<LightMyRequestResponse> {
    const response = await this.request({ method: 'GET', url, headers: { accept: 'text/html' } });
    const token = /<meta name="_csrf" content="([^"]*)"/.exec(response.body)?.[1];
    if (token) this.csrf = token;
    return response;
  }

  async signIn(username: string, password: string): Promise<LightMyRequestResponse> {
    await this.open('/login');
    const response = await this.request(signInPost({ username, password, _csrf: this.csrf }, { accept: 'text/html' }));
    if (response.headers.location === '/') await this.open('/');
    return response;
  }

  json(method: InjectOptions['method'], url: string, payload?: unknown): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = { accept: 'application/json' };
    headers['x-csrf-token'] = this.csrf;
    return this.request({
      method,
      url,
      headers,
      ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }),
    });
  }
}
