import type { IconName } from './shell/icons';

/**
 * What a signed-in page declares about itself (TanStack Router `staticData`): the title and icon of
 * the top bar when the menu does not name the page, the plan resource it needs (spec 5, route
 * gating), and whether it uses the period picker and the auto-refresh control.
 */
export interface PageMeta {
  /** i18n key of the page title. */
  titleKey?: string;
  icon?: IconName;
  /** The plan resource the page needs; a function reads it from the page's search params. */
  resource?: string | ((search: Record<string, unknown>) => string | undefined);
  /** The page follows the period picker; otherwise the picker is turned off on it (spec 2). */
  usesTimeRange?: boolean;
  /** The page follows the auto-refresh control; otherwise the control is turned off on it. */
  usesRefresh?: boolean;
  /** The page sets its own tab title (error pages). */
  ownsTabTitle?: boolean;
}

declare module '@tanstack/react-router' {
  interface StaticDataRouteOption extends PageMeta {}
}
