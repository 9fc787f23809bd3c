#!/bin/sh
# Entry point of the agent image (Dockerfile.agent). With no arguments: on the first start, when
# FLIGHTDECK_URL and FLIGHTDECK_KEY are set and no config file exists yet, registers the host
# (FLIGHTDECK_NATS and FLIGHTDECK_INTERVAL are passed on when set); then runs the agent. With
# arguments: runs that command instead (`docker run ... flightdeck/agent status`).
set -eu

if [ "$#" -gt 0 ]; then
  exec flightdeck-agent "$@"
fi

config="${AGENT_CONFIG:-/var/lib/flightdeck-agent/agent.json}"
if [ ! -f "$config" ] && [ -n "${FLIGHTDECK_URL:-}" ] && [ -n "${FLIGHTDECK_KEY:-}" ]; then
  set -- --url "$FLIGHTDECK_URL" --key "$FLIGHTDECK_KEY"
  if [ -n "${FLIGHTDECK_NATS:-}" ]; then set -- "$@" --nats "$FLIGHTDECK_NATS"; fi
  if [ -n "${FLIGHTDECK_INTERVAL:-}" ]; then set -- "$@" --interval "$FLIGHTDECK_INTERVAL"; fi
  flightdeck-agent register "$@"
fi
exec flightdeck-agent run
