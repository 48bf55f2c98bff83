import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

// The admin app is served by Quarry itself at /admin (src/modules/admin-ui).
export default defineConfig({
  root,
  base: '/admin/',
  plugins: [react()],
  logLevel: 'warn',
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 600 },
  server: { proxy: { '/v1': 'http://127.0.0.1:3000', '/api': 'http://127.0.0.1:3000' } },
});
