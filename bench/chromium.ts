/**
 * The system Chromium's flags for the browser benchmarks and the journeys (PLATFORM.md): no sandbox as root, no GPU,
 * and nothing that reaches the network on its own, so a measurement sees only the portal's traffic. The launchers add
 * headless.
 */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
