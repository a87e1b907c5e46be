import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'web',
    root: import.meta.dirname,
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
    setupFiles: ['./src/test-setup.ts'],
    css: false,
    // Dialog tests type and click through user-event: on CI's loaded 2-core machine one took over the default 5 s.
    testTimeout: 15_000,
  },
});
