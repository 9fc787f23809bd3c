#!/bin/sh
# Installs the Flightdeck agent on this Linux host, or re-installs it (the binary and the config are
# replaced; the host keeps its key, its server and its history):
#   sudo ./install.sh --url https://flightdeck.example.com --key fdk_...
# Other options of `flightdeck-agent register` pass through: --nats <url>, --interval <s>.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
bin=/usr/local/bin/flightdeck-agent

if [ "$(id -u)" -ne 0 ]; then
  echo "install.sh: run it as root: sudo $0 --url <api address> --key <access key>" >&2
  exit 1
fi

# A rename replaces the binary even while the old one runs.
install -m 0755 "$here/flightdeck-agent" "$bin.new"
mv -f "$bin.new" "$bin"
echo "Installed $bin"

"$bin" register "$@"

if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
  install -m 0644 "$here/flightdeck-agent.service" /etc/systemd/system/flightdeck-agent.service
  systemctl daemon-reload
  systemctl enable flightdeck-agent.service >/dev/null 2>&1
  systemctl restart flightdeck-agent.service
  echo "Service flightdeck-agent enabled and (re)started."
  sleep 2
  "$bin" status || true
else
  echo "No systemd on this host: start the agent with '$bin run' from your init system."
fi
