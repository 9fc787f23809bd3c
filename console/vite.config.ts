import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/** The console is served by the API in production; in development Vite proxies /api to it. */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  define: { __CONSOLE_VERSION__: JSON.stringify(version) },
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://127.0.0.1:8080', changeOrigin: false } },
  },
  preview: {
    proxy: { '/api': { target: 'http://127.0.0.1:8080', changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 400,
    rollupOptions: {
      treeshake: {
        // The shared schemas only declare zod schemas and pure functions: a module of it that the
        // console does not use (metric catalogue, bus messages...) can be left out of the bundle.
        moduleSideEffects: (id) => !/[\\/]schemas[\\/]src[\\/]/.test(id),
      },
    },
  },
});
