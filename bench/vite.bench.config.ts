// Production build of the bench pages (one HTML entry per browser bench) into bench/.tmp/pages.
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  root: here('.'),
  base: './',
  plugins: [react()],
  logLevel: 'warn',
  build: {
    outDir: here('.tmp/pages'),
    emptyOutDir: true,
    sourcemap: false,
    rolldownOptions: { input: { palette: here('palette/index.html'), charts: here('charts/index.html') } },
  },
});
