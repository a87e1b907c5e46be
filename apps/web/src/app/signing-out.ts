/**
 * Whether the user has asked to sign out. Requests still under way then come back 401 once the session is gone
 * (a live reconnect reloading what it shows, a refetch); they must not send the user to 'session expired' instead
 * of the signed-out page. Its own module: the API client is on the first page, sign-out loads on its click.
 */
let signingOut = false;

export const markSigningOut = (): void => {
  signingOut = true;
};

export const isSigningOut = (): boolean => signingOut;
