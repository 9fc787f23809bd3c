import { z } from 'zod';

/**
 * Deployment of the host agent (spec section 2, /deploy/agent): the packages `npm run
 * package:agent` builds, served by the api under `/downloads/agent/<package>`, and the install
 * script `/downloads/agent/install.sh` behind the Linux one-liner.
 */

/** The agent packages the api can serve: one per operating system and architecture. */
export const AGENT_PACKAGES = ['linux-x64', 'windows-x64'] as const;
export type AgentPackageName = (typeof AGENT_PACKAGES)[number];

/** One package as `GET /downloads/agent` lists it; `size` and `built_at` are null when not built. */
export const AgentPackage = z
  .object({
    name: z.enum(AGENT_PACKAGES),
    /** Name of the file a download saves (`flightdeck-agent-linux-x64.tar.gz`). */
    file_name: z.string(),
    available: z.boolean(),
    /** Bytes. */
    size: z.number().int().nonnegative().nullable(),
    /** Unix seconds of the build (the file's modification time). */
    built_at: z.number().int().nullable(),
  })
  .strict();
export type AgentPackage = z.infer<typeof AgentPackage>;

/**
 * `GET /downloads/agent` → data: every package with whether this server has it built, and the
 * address agents are told to register with (PUBLIC_URL, else the address the call came to).
 */
export const AgentPackagesData = z
  .object({ server_url: z.string(), packages: z.array(AgentPackage) })
  .strict();
export type AgentPackagesData = z.infer<typeof AgentPackagesData>;
