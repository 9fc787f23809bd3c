/// <reference types="vite/client" />

/** Version of the console package, set by vite.config.ts at build time. */
declare const __CONSOLE_VERSION__: string;

interface ImportMetaEnv {
  /** Documentation address the welcome banner links to; absent = the README of the installation. */
  readonly VITE_DOCS_URL?: string;
  /** Where the plan-gated overlay's "Contact Us" leads; absent = the plans page. */
  readonly VITE_CONTACT_URL?: string;
}
