/** A string as one single-quoted shell word: `'` becomes `'\''`. */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/**
 * The script behind the Linux one-liner
 * `curl -fsSL <server>/api/downloads/agent/install.sh | sudo sh -s -- --key fdk_...`:
 * downloads the linux-x64 package from `serverUrl` with the access key as bearer token, unpacks it
 * in a temporary folder and runs the package's own install.sh with `--url <serverUrl>` and the
 * arguments it was given (`--key`, and `--nats`, `--interval`, or another `--url`). The script holds
 * no secret: the key only comes from the command line.
 */
export function linuxInstallScript(serverUrl: string): string {
  return `#!/bin/sh
# Installs (or re-installs) the Flightdeck agent on this Linux host from ${serverUrl}:
#   curl -fsSL ${serverUrl}/api/downloads/agent/install.sh | sudo sh -s -- --key fdk_...
# Other options of \`flightdeck-agent register\` pass through: --nats <url>, --interval <s>, --url <url>.
set -eu

server=${shellQuote(serverUrl)}
key=
has_url=
prev=
for arg in "$@"; do
  if [ "$prev" = "--key" ]; then key=$arg; fi
  case "$arg" in
    --url | --url=*) has_url=1 ;;
    --key=*) key=\${arg#--key=} ;;
  esac
  prev=$arg
done

if [ -z "$key" ]; then
  echo "install.sh: give the access key of the Deploy page: sh -s -- --key <access key>" >&2
  exit 2
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "install.sh: run it as root: ... | sudo sh -s -- --key <access key>" >&2
  exit 1
fi
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64 | Linux-amd64) ;;
  *)
    echo "install.sh: the agent package is built for Linux x86_64 (this is $(uname -s) $(uname -m))" >&2
    exit 1
    ;;
esac

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
archive="$tmp/flightdeck-agent-linux-x64.tar.gz"
download="$server/api/downloads/agent/linux-x64"
echo "Downloading $download"
if command -v curl >/dev/null 2>&1; then
  curl -fsSL -H "Authorization: Bearer $key" -o "$archive" "$download"
elif command -v wget >/dev/null 2>&1; then
  wget -q --header="Authorization: Bearer $key" -O "$archive" "$download"
else
  echo "install.sh: curl or wget is needed to download the agent" >&2
  exit 1
fi
tar -xzf "$archive" -C "$tmp"

if [ -z "$has_url" ]; then set -- --url "$server" "$@"; fi
sh "$tmp/flightdeck-agent-linux-x64/install.sh" "$@"
`;
}
