import { DEFAULT_REFRESH_INTERVAL, DEFAULT_TIME_RANGE_TYPE, refreshAllowed } from '@flightdeck/schemas';
import { useRouterState } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { createStore } from '../../lib/store';
import { refresh } from '../refresh';
import type { ShellSearch } from '../time-range';
import { clearBreadcrumbs } from './breadcrumbs';
import { closeSidebar } from './hosts/hosts';

/** Which of the period picker and the refresh control the current page uses; the others are off. */
export const timeControlsStore = createStore({ range: false, refresh: false });

/**
 * What every page change does (spec 2 and 4): breadcrumbs and sidebar are cleared and refresh is
 * enabled again (or disabled when the period does not allow it); a change of route name also turns
 * the period picker and the refresh control off unless the new page declares it uses them.
 */
export function useRouteChangeEffects(search: ShellSearch): void {
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const leaf = useRouterState({ select: (state) => state.matches.at(-1) });
  const routeId = leaf?.routeId;
  const range = search.range ?? DEFAULT_TIME_RANGE_TYPE;
  const first = useRef(true);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on each page change, by design
  useEffect(() => {
    if (!first.current) {
      clearBreadcrumbs();
      closeSidebar();
    }
    first.current = false;
    refresh.dispatch(refreshAllowed(range) ? 'refresh_config_enable' : 'refresh_config_disable');
  }, [pathname]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed on the route name only
  useEffect(() => {
    timeControlsStore.set({
      range: leaf?.staticData.usesTimeRange === true,
      refresh: leaf?.staticData.usesRefresh === true || leaf?.staticData.usesTimeRange === true,
    });
  }, [routeId]);

  // A period that ends in the past cannot refresh; the last hour or two start it again.
  useEffect(() => {
    refresh.dispatch(refreshAllowed(range) ? 'refresh_config_enable' : 'refresh_config_disable');
  }, [range]);

  useEffect(() => {
    refresh.setInterval(search.interval ?? DEFAULT_REFRESH_INTERVAL);
  }, [search.interval]);
}
