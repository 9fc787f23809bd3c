import './app/styles';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { queryClient } from './app/query-client';
import { router } from './app/router';
import { colorSchemeManager, theme } from './app/theme';
import { initI18n } from './i18n';
import { installChunkReload } from './lib/chunk-reload';

installChunkReload();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// The first paint waits for the translation file of the user's language (a few kB).
await initI18n();

createRoot(root).render(
  <StrictMode>
    <MantineProvider theme={theme} defaultColorScheme="auto" colorSchemeManager={colorSchemeManager}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
