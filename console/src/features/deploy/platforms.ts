/** The agent's install choices, each a tab of /deploy/agent. */
export const AGENT_PLATFORMS = ['linux', 'docker', 'windows'] as const;
export type AgentPlatform = (typeof AGENT_PLATFORMS)[number];

export const PLATFORM_PATHS = {
  linux: '/deploy/agent',
  docker: '/deploy/agent/docker',
  windows: '/deploy/agent/windows',
} as const satisfies Record<AgentPlatform, string>;
