import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';
import { chunkGroups } from './chunk-groups';
import { domainForTheWeb } from './domain-for-the-web';
import { earlyReadsScript } from './early-reads-script';
import { intlWarmUp } from './intl-warm-up';
import { routeChunks } from './route-chunks';

export default defineConfig({
  plugins: [
    react(),
    domainForTheWeb(),
    routeChunks(),
    intlWarmUp(),
    earlyReadsScript(),
    // Every built script and style sheet also as .br and .gz (highest levels: made once, served many times); the
    // server picks one by Accept-Encoding. index.html is left out: the server renders it per request.
    compression({ algorithms: ['brotliCompress', 'gzip'], exclude: /(^|\/)index\.html$/ }),
  ],
  build: {
    outDir: 'dist',
    sourcemap: true,
    chunkSizeWarningLimit: 800,
    rolldownOptions: { output: { codeSplitting: chunkGroups } },
  },
  server: { proxy: { '^/(?!src|@|node_modules).*': 'http://127.0.0.1:8080' } },
});
