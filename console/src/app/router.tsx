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
  retainSearchParams,
} from '@tanstack/react-router';
import { validateProfileSearch, validateThresholdsSearch } from '../features/alerts/search';
import { sessionQuery } from '../features/auth/queries';
import { menuQuery, planInfoQuery } from '../features/plan/queries';
import { preferencesQuery } from '../features/preferences/queries';
import { loadFeatureTranslations } from '../i18n';
import { ApiError, onSessionEnd } from '../lib/api-client';
import { HOME_PATH, rewriteTmsPath, safeRedirect } from '../lib/redirect';
import { queryClient } from './query-client';
import './route-meta';
import { NotFoundPage, RouteErrorPage } from './shell/ErrorPage';
import { LoadingScreen } from './shell/LoadingScreen';
import { SHELL_SEARCH_KEYS, validateShellSearch } from './time-range';

interface RouterContext {
  queryClient: QueryClient;
}

const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: Outlet,
  notFoundComponent: NotFoundPage,
  errorComponent: RouteErrorPage,
  // Spec 2: any path holding /tms/ is the same page under /ground_control/.
  beforeLoad: ({ location }) => {
    const rewritten = rewriteTmsPath(location.pathname);
    if (rewritten) {
      throw redirect({
        href: `${rewritten}${location.searchStr}${location.hash ? `#${location.hash}` : ''}`,
        replace: true,
      });
    }
  },
});

// ---------------------------------------------------------------------------------------------
// Open pages: sign-in, sign-up, password recovery, legal texts. Each is its own chunk.

const indexRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  beforeLoad: () => {
    throw redirect({ href: HOME_PATH, replace: true });
  },
});

const redirectSearch = (search: Record<string, unknown>): { redirect?: string } =>
  typeof search.redirect === 'string' ? { redirect: search.redirect } : {};
const emailSearch = (search: Record<string, unknown>): { email?: string } =>
  typeof search.email === 'string' ? { email: search.email } : {};

const signInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/signin',
  validateSearch: redirectSearch,
  component: lazyRouteComponent(() => import('../features/auth/SignInPage'), 'SignInPage'),
});

const recoveryPasswordRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/signin/recovery/password',
  validateSearch: emailSearch,
  component: lazyRouteComponent(() => import('../features/auth/RecoveryPage'), 'RecoveryPage'),
});

const recoveryCancelRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/signin/recovery/cancel',
  validateSearch: emailSearch,
  component: lazyRouteComponent(() => import('../features/auth/RecoveryCancelPage'), 'RecoveryCancelPage'),
});

const signUpRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/signup',
  component: lazyRouteComponent(() => import('../features/auth/SignUpPage'), 'SignUpPage'),
});

const verifyRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/signup/verify',
  validateSearch: emailSearch,
  component: lazyRouteComponent(() => import('../features/auth/VerifyEmailPage'), 'VerifyEmailPage'),
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

// ---------------------------------------------------------------------------------------------
// Signed-in pages: everything else, inside the shell.

/**
 * Guard of every signed-in page: asks the API who is signed in (cached for a minute). A 401 or 403
 * sends the visitor to /signin with the wanted page in `redirect` (spec 2, access rules).
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

/** Loads what the shell needs before it shows; a failure is logged and the shell shows anyway (spec 8). */
async function loadShellData(client: QueryClient): Promise<void> {
  const results = await Promise.allSettled([
    client.ensureQueryData(planInfoQuery),
    client.ensureQueryData(menuQuery),
    client.ensureQueryData(preferencesQuery),
  ]);
  for (const result of results) {
    if (result.status === 'rejected') console.error('the shell could not load its data', result.reason);
  }
}

const shellRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'shell',
  validateSearch: validateShellSearch,
  search: { middlewares: [retainSearchParams([...SHELL_SEARCH_KEYS])] },
  beforeLoad: async ({ context, location }) => {
    await requireSession({ context, location });
    // After sign-in the home page carries the requested page in do_redirect (spec 2).
    const wanted = (location.search as Record<string, unknown>).do_redirect;
    if (location.pathname === HOME_PATH && typeof wanted === 'string') {
      const target = safeRedirect(wanted);
      throw redirect({ href: target, replace: true });
    }
  },
  loader: async ({ context }) => {
    const [data] = await Promise.all([loadShellData(context.queryClient), loadFeatureTranslations()]);
    return data;
  },
  pendingComponent: LoadingScreen,
  pendingMs: 0,
  // The loading screen goes as soon as the shell can show: no minimum on screen (the default
  // 500 ms would add up to half a second to every first navigation).
  pendingMinMs: 0,
  component: lazyRouteComponent(() => import('./shell/Shell'), 'Shell'),
});

const ShellErrorPage = lazyRouteComponent(() => import('./shell/ShellErrorPage'), 'ShellRouteError');
const AboutPage = lazyRouteComponent(() => import('../features/about/AboutPage'), 'AboutPage');

const aboutRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: '/about',
  staticData: { titleKey: 'about.pageTitle', icon: 'info', usesRefresh: true },
  errorComponent: ShellErrorPage,
  component: AboutPage,
});

const managementsAboutRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: '/managements/about',
  staticData: { titleKey: 'about.pageTitle', icon: 'info', usesRefresh: true },
  errorComponent: ShellErrorPage,
  component: AboutPage,
});

/**
 * Spec 2: /flightdeck/services/{id}/{service}, both optional. Without an id the page lists the
 * hosts (it follows the auto-refresh); with one it shows the host, whose charts also follow the
 * period picker. Both load the same chunk, the only one holding uPlot.
 */
const hostsRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: '/flightdeck/services',
  staticData: { titleKey: 'servers.pageTitle', icon: 'server', usesRefresh: true },
  errorComponent: ShellErrorPage,
  component: lazyRouteComponent(() => import('../features/servers/ServicesPage'), 'HostsPage'),
});

const hostRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: '/flightdeck/services/$id/{-$service}',
  staticData: { titleKey: 'servers.pageTitle', icon: 'server', usesTimeRange: true, usesRefresh: true },
  errorComponent: ShellErrorPage,
  component: lazyRouteComponent(() => import('../features/servers/ServicesPage'), 'HostRoutePage'),
});

/** Spec 2: the cockpit's critical files (route spelled as the spec has it). */
const filesCriticalsRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: '/flightdeck/cockpit/files_criticals',
  staticData: {
    titleKey: 'files.pageTitle',
    icon: 'shield',
    resource: 'flightdeck.cockpit.files_criticals',
    usesRefresh: true,
  },
  errorComponent: ShellErrorPage,
  component: lazyRouteComponent(() => import('../features/files/FilesPage'), 'FilesPage'),
});

/** Spec 2 and 3: the home page, the open alerts of every server grouped by server. */
const masterWarningRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: '/flightdeck/cockpit/master_warning',
  staticData: {
    titleKey: 'alerts.masterWarning.pageTitle',
    icon: 'alert',
    resource: 'flightdeck.cockpit.master_warning',
    usesRefresh: true,
  },
  errorComponent: ShellErrorPage,
  component: lazyRouteComponent(() => import('../features/alerts/MasterWarningPage'), 'MasterWarningPage'),
});

/** Spec 2 and 7: thresholds per server and for every server, with the metric's chart. */
const thresholdsRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: '/flightdeck/management/thresholds',
  validateSearch: validateThresholdsSearch,
  staticData: {
    titleKey: 'alerts.thresholds.pageTitle',
    icon: 'bell',
    resource: 'flightdeck.management.thresholds',
    usesTimeRange: true,
    usesRefresh: true,
  },
  errorComponent: ShellErrorPage,
  component: lazyRouteComponent(() => import('../features/alerts/ThresholdsPage'), 'ThresholdsPage'),
});

/** Spec 2 and 7: MTTA/MTTR, muting alert types, unavailable marks and their history. */
const managementAlertsRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: '/flightdeck/management/alerts',
  staticData: {
    titleKey: 'alerts.management.pageTitle',
    icon: 'bell',
    resource: 'flightdeck.management.alerts',
    usesTimeRange: true,
    usesRefresh: true,
  },
  errorComponent: ShellErrorPage,
  component: lazyRouteComponent(
    () => import('../features/alerts/ManagementAlertsPage'),
    'ManagementAlertsPage',
  ),
});

/** Spec 2 and 7: maintenance windows by state, a new-window form and the per-day chart. */
const maintenanceRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: '/flightdeck/management/maintenance',
  staticData: {
    titleKey: 'maintenance.heading',
    icon: 'tools',
    resource: 'flightdeck.management.maintenance',
    usesTimeRange: true,
    usesRefresh: true,
  },
  errorComponent: ShellErrorPage,
  component: lazyRouteComponent(() => import('../features/maintenance/MaintenancePage'), 'MaintenancePage'),
});

/** Spec 7, "Integrations": the escalation chain per severity, with its steps' delays and recipients. */
const escalationRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: '/flightdeck/management/escalation',
  staticData: {
    titleKey: 'escalation.heading',
    icon: 'bell',
    resource: 'flightdeck.management.escalation',
  },
  errorComponent: ShellErrorPage,
  component: lazyRouteComponent(() => import('../features/escalation/EscalationPage'), 'EscalationPage'),
});

/** Spec 2: the alert history over the period picker's range. */
const flashbackAlertsRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: '/flightdeck/flashback/alerts',
  staticData: {
    titleKey: 'alerts.history.pageTitle',
    icon: 'history',
    resource: 'flightdeck.flashback.alerts',
    usesTimeRange: true,
    usesRefresh: true,
  },
  errorComponent: ShellErrorPage,
  component: lazyRouteComponent(
    () => import('../features/alerts/FlashbackAlertsPage'),
    'FlashbackAlertsPage',
  ),
});

/** Spec 2: the user's profile (id optional), by section; the console has the integrations section. */
const profileRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: '/managements/profile/{-$id}',
  validateSearch: validateProfileSearch,
  staticData: { titleKey: 'alerts.profile.pageTitle', icon: 'user' },
  errorComponent: ShellErrorPage,
  component: lazyRouteComponent(() => import('../features/alerts/ProfilePage'), 'ProfilePage'),
});

/** Spec 2: deployment of collectors; the agent's pages share one chunk. */
const deployRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: '/deploy',
  staticData: { titleKey: 'deploy.pageTitle', icon: 'rocket' },
  errorComponent: ShellErrorPage,
  component: lazyRouteComponent(() => import('../features/deploy/DeployPage'), 'DeployPage'),
});

const deployAgentRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: '/deploy/agent',
  staticData: { titleKey: 'deploy.pageTitle', icon: 'rocket' },
  errorComponent: ShellErrorPage,
  component: lazyRouteComponent(() => import('../features/deploy/AgentDeployPage'), 'AgentLinuxPage'),
});

const deployDockerRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: '/deploy/agent/docker',
  staticData: { titleKey: 'deploy.pageTitle', icon: 'rocket' },
  errorComponent: ShellErrorPage,
  component: lazyRouteComponent(() => import('../features/deploy/AgentDeployPage'), 'AgentDockerPage'),
});

const deployWindowsRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: '/deploy/agent/windows',
  staticData: { titleKey: 'deploy.pageTitle', icon: 'rocket' },
  errorComponent: ShellErrorPage,
  component: lazyRouteComponent(() => import('../features/deploy/AgentDeployPage'), 'AgentWindowsPage'),
});

/** Spec 2: agentless deployment: the engine picker, then a service's test-then-register form. */
const deployAgentlessRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: '/deploy/agentless',
  staticData: { titleKey: 'deploy.pageTitle', icon: 'rocket' },
  errorComponent: ShellErrorPage,
  component: lazyRouteComponent(
    () => import('../features/deploy/agentless/AgentlessPickerPage'),
    'AgentlessPickerPage',
  ),
});

const deployAgentlessServiceRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: '/deploy/agentless/$service',
  staticData: { titleKey: 'deploy.pageTitle', icon: 'rocket' },
  errorComponent: ShellErrorPage,
  component: lazyRouteComponent(
    () => import('../features/deploy/agentless/AgentlessServicePage'),
    'AgentlessRegisterPage',
  ),
});

const deployAgentlessAddRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: '/deploy/agentless/$service/add',
  staticData: { titleKey: 'deploy.pageTitle', icon: 'rocket' },
  errorComponent: ShellErrorPage,
  component: lazyRouteComponent(
    () => import('../features/deploy/agentless/AgentlessServicePage'),
    'AgentlessAddPage',
  ),
});

/** Spec 2 lists /test among its test pages: here it checks one plan resource through the route gate. */
const planCheckRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: '/test',
  validateSearch: (search: Record<string, unknown>): { resource?: string } =>
    typeof search.resource === 'string' ? { resource: search.resource } : {},
  staticData: {
    titleKey: 'planCheck.pageTitle',
    icon: 'shield',
    resource: (search) => (typeof search.resource === 'string' ? search.resource : undefined),
  },
  errorComponent: ShellErrorPage,
  component: lazyRouteComponent(() => import('../features/plan/PlanCheckPage'), 'PlanCheckPage'),
});

/** Any other path of a signed-in user: the not-found page inside the shell (spec 2 and 8). */
const shellNotFoundRoute = createRoute({
  getParentRoute: () => shellRoute,
  path: '$',
  staticData: { ownsTabTitle: true },
  component: lazyRouteComponent(() => import('./shell/ShellErrorPage'), 'ShellNotFound'),
});

const routeTree = rootRoute.addChildren([
  indexRoute,
  signInRoute,
  recoveryPasswordRoute,
  recoveryCancelRoute,
  signUpRoute,
  verifyRoute,
  termsRoute,
  privacyRoute,
  shellRoute.addChildren([
    aboutRoute,
    managementsAboutRoute,
    hostsRoute,
    hostRoute,
    filesCriticalsRoute,
    masterWarningRoute,
    thresholdsRoute,
    managementAlertsRoute,
    maintenanceRoute,
    escalationRoute,
    flashbackAlertsRoute,
    profileRoute,
    deployRoute,
    deployAgentRoute,
    deployDockerRoute,
    deployWindowsRoute,
    deployAgentlessRoute,
    deployAgentlessServiceRoute,
    deployAgentlessAddRoute,
    planCheckRoute,
    shellNotFoundRoute,
  ]),
]);

export const router = createRouter({
  routeTree,
  context: { queryClient },
  defaultPreload: 'intent',
  // Query data is TanStack Query's business; the router only decides where to go.
  defaultPreloadStaleTime: 0,
  defaultPendingComponent: LoadingScreen,
  defaultPendingMs: 300,
  parseSearch: defaultParseSearch,
  // "/signin?redirect=/about" reads better than %2F, and "/" is legal in a query string.
  stringifySearch: (search) => defaultStringifySearch(search).replace(/%2F/gi, '/'),
  scrollRestoration: true,
});

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
