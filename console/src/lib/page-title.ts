import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** Sets the tab title to "Flightdeck - {title}" (spec 2), following language changes. */
export function usePageTitle(title: string): void {
  const { t } = useTranslation();
  const full = t('app.pageTitle', { title });
  useEffect(() => {
    document.title = full;
  }, [full]);
}

/** Sets the tab title verbatim (error pages: "404 Not Found", "An error occurred"). */
export function useTabTitle(title: string): void {
  useEffect(() => {
    document.title = title;
  }, [title]);
}
