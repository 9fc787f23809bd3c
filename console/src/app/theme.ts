import { createTheme, localStorageColorSchemeManager } from '@mantine/core';

/** One theme for the whole console; Mantine supplies the dark scheme from the same palette. */
export const theme = createTheme({
  primaryColor: 'indigo',
  defaultRadius: 'md',
  fontFamily:
    'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: '650' },
  cursorType: 'pointer',
});

/** Remembers light/dark in localStorage; index.html reads the same key before the first paint. */
export const colorSchemeManager = localStorageColorSchemeManager({ key: 'mantine-color-scheme-value' });
