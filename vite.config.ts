import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The console is a static bundle: the reference server serves dist/, and the same build can be
// hosted anywhere else, pointed at another API through the PALISADE_* variables (see src/web/auth/config.ts).
export default defineConfig({
  root: '.',
  plugins: [react()],
  envPrefix: 'PALISADE_',
  build: { outDir: 'dist', sourcemap: false, chunkSizeWarningLimit: 600 },
  server: { port: 5173, host: '127.0.0.1' },
});
