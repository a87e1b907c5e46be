/** The browser's leaving of the app, one seam so component tests can see where it would go (jsdom cannot). */
export const browser = {
  assign: (url: string) => window.location.assign(url),
};
