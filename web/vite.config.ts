import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The dev server proxies the API to a running `npm start` (PORT 3000 unless API_ORIGIN says otherwise).
const apiOrigin = process.env.API_ORIGIN ?? 'http://localhost:3000';

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 2000 },
  // The case check's worker (case-form/check-worker.ts) loads the served validators with import().
  worker: { format: 'es' },
  server: { proxy: { '/api': apiOrigin, '/health': apiOrigin } },
});
