import { Center, Loader } from '@mantine/core';
import type { QueryClient } from '@tanstack/react-query';
import {
  createRootRouteWithContext,
  createRoute,
  createRouter,
  defaultParseSearch,
  defaultStringifySearch,
  lazyRouteComponent,
  Outlet,
  type ParsedLocation,
  redirect,
} from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { sessionQuery } from '../features/auth/queries';
import { ApiError, onSessionEnd } from '../lib/api-client';
import { HOME_PATH } from '../lib/redirect';
import { queryClient } from './query-client';
import { NotFoundPage, RouteErrorPage } from './shell/ErrorPage';

interface RouterContext {
  queryClient: QueryClient;
}

const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: Outlet,
  notFoundComponent: NotFoundPage,
  errorComponent: RouteErrorPage,
});

/**
 * Guard of every signed-in page: asks the API who is signed in (cached for a minute). A 401 sends
 * the visitor to /signin with the wanted page in `redirect` (spec 2, access rules).
 */
async function requireSession({ context, location }: { context: RouterContext; location: ParsedLocation }) {
  try {
    await context.queryClient.ensureQueryData(sessionQuery);
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
      throw redirect({ to: '/signin', search: { redirect: location.href }, replace: true });
    }
    throw error;
  }
}

const indexRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  beforeLoad: () => {
    throw redirect({ to: HOME_PATH, replace: true });
  },
});

const signInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/signin',
  validateSearch: (search: Record<string, unknown>): { redirect?: string } =>
    typeof search.redirect === 'string' ? { redirect: search.redirect } : {},
  component: lazyRouteComponent(() => import('../features/auth/SignInPage'), 'SignInPage'),
});

const AboutPage = lazyRouteComponent(() => import('../features/about/AboutPage'), 'AboutPage');

const aboutRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/about',
  beforeLoad: requireSession,
  component: AboutPage,
});

const managementsAboutRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/managements/about',
  beforeLoad: requireSession,
  component: AboutPage,
});

const termsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/terms',
  component: lazyRouteComponent(() => import('../features/legal/LegalPage'), 'TermsPage'),
});

const privacyRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/privacy',
  component: lazyRouteComponent(() => import('../features/legal/LegalPage'), 'PrivacyPage'),
});

const routeTree = rootRoute.addChildren([
  indexRoute,
  signInRoute,
  aboutRoute,
  managementsAboutRoute,
  termsRoute,
  privacyRoute,
]);

export const router = createRouter({
  routeTree,
  context: { queryClient },
  defaultPreload: 'intent',
  // Query data is TanStack Query's business; the router only decides where to go.
  defaultPreloadStaleTime: 0,
  defaultPendingComponent: PendingPage,
  defaultPendingMs: 300,
  parseSearch: defaultParseSearch,
  // "/signin?redirect=/about" reads better than %2F, and "/" is legal in a query string.
  stringifySearch: (search) => defaultStringifySearch(search).replace(/%2F/gi, '/'),
  scrollRestoration: true,
});

function PendingPage() {
  const { t } = useTranslation();
  return (
    <Center mih="100dvh">
      <Loader aria-label={t('common.loading')} />
    </Center>
  );
}

// A 403 from any call: forget what was cached, end the server session, sign in again (spec 4).
onSessionEnd(() => {
  queryClient.clear();
  void fetch('/api/logout', { method: 'POST', credentials: 'include' }).catch(() => undefined);
  const here = router.state.location;
  if (here.pathname !== '/signin') {
    void router.navigate({ to: '/signin', search: { redirect: here.href }, replace: true });
  }
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
