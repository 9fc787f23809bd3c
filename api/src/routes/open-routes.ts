/**
 * The only routes answered without a session, as `METHOD path` exactly as Hono lists them in
 * `app.routes`. Every other route must answer 401 to a caller without one; access.test.ts walks
 * all registered routes and holds them to it, so a route added later is protected unless it is
 * listed here on purpose.
 */
export const OPEN_ROUTES: readonly string[] = [
  'GET /api/health',
  // Sign-in, and logout (it clears the cookie even for an expired session).
  'POST /api/signin',
  'POST /api/signin/:login_type/login',
  'POST /api/logout',
  // Password recovery: the caller cannot sign in yet.
  'POST /api/auth/:login_type/password_recovery',
  'POST /api/auth/:login_type/password_verify_code',
  'POST /api/auth/:login_type/destroy_code',
  'POST /api/auth/:login_type/recovery_password',
  // Freemium sign-up: the account does not exist yet.
  'POST /api/signup/:login_type/register',
  'POST /api/signup/email_verification',
  // Agent calls: authenticated by the agent access key (Bearer), not by a session.
  'POST /api/ingest',
  'POST /api/agent/register',
  'POST /api/agent/files/sync',
  // The Linux install script: it holds only this server's address; the packages it downloads need
  // the access key given on its command line.
  'GET /api/downloads/agent/install.sh',
  // The built console: its files and the SPA fallback (the pages sign in through the API).
  'GET /assets/*',
  'GET /*',
];
