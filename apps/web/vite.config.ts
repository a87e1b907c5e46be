import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', sourcemap: true, chunkSizeWarningLimit: 800 },
  server: { proxy: { '^/(?!src|@|node_modules).*': 'http://127.0.0.1:8080' } },
});
