/// <reference types="vite/client" />

/** Version of the console package, set by vite.config.ts at build time. */
declare const __CONSOLE_VERSION__: string;
