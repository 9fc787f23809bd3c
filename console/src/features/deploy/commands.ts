/**
 * The install commands the Deploy pages show, built from the server's address and the access key
 * (or a placeholder when the key is not on screen). They follow agent/packaging: install.sh and
 * the api's install script for Linux, docker-entrypoint.sh and Dockerfile.agent for Docker,
 * install.ps1's parameters for Windows.
 */

/** Stands for the access key when the full key is not shown (it is shown only once). */
export const KEY_PLACEHOLDER = '<ACCESS_KEY>';

/** Name of the image Dockerfile.agent builds. */
export const AGENT_IMAGE = 'flightdeck/agent';

const SAFE_SHELL_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** One shell word: as it is when it holds nothing special, else single-quoted. */
export function shellWord(value: string): string {
  return SAFE_SHELL_WORD.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}

/** One PowerShell single-quoted string. */
export function psString(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

/** The key as it goes into a command: shell-quoted, or the placeholder left bare to be replaced. */
function keyWord(key: string | null): string {
  return key === null ? KEY_PLACEHOLDER : shellWord(key);
}

/** The server address without a trailing slash. */
export function serverBase(url: string): string {
  return url.replace(/\/+$/, '');
}

/** The Linux one-liner: the api's install script downloads the package and registers the host. */
export function linuxOneLiner(url: string, key: string | null): string {
  return `curl -fsSL ${shellWord(`${serverBase(url)}/api/downloads/agent/install.sh`)} | sudo sh -s -- --key ${keyWord(key)}`;
}

/** The same install from a downloaded package (README, "Host agent"). */
export function linuxFromPackage(url: string, key: string | null): string {
  return [
    'tar -xzf flightdeck-agent-linux-x64.tar.gz && cd flightdeck-agent-linux-x64',
    `sudo ./install.sh --url ${shellWord(serverBase(url))} --key ${keyWord(key)}`,
  ].join('\n');
}

/** Builds the agent image from a checkout of the Flightdeck sources. */
export const DOCKER_BUILD = `docker build -f Dockerfile.agent -t ${AGENT_IMAGE} .`;

/**
 * `docker run` of the agent image watching its host: the host's pid and network namespaces, /proc,
 * /sys and / read-only, the Docker socket, and a volume keeping the registration; FLIGHTDECK_URL
 * and FLIGHTDECK_KEY make the entry point register on the first start.
 */
export function dockerRunCommand(url: string, key: string | null): string {
  return [
    'docker run -d --name flightdeck-agent --restart unless-stopped --pid=host --network=host \\',
    '  -v /proc:/host/proc:ro -v /sys:/host/sys:ro -v /:/rootfs:ro,rslave \\',
    '  -v /var/run/docker.sock:/var/run/docker.sock:ro -v flightdeck-agent:/var/lib/flightdeck-agent \\',
    `  -e FLIGHTDECK_URL=${shellWord(serverBase(url))} -e FLIGHTDECK_KEY=${keyWord(key)} ${AGENT_IMAGE}`,
  ].join('\n');
}

/** A YAML scalar: plain when safe, else double-quoted. */
function yamlValue(value: string): string {
  return /^[A-Za-z0-9_./:-]+$/.test(value) ? value : JSON.stringify(value);
}

/** The same container as a docker-compose service. */
export function dockerComposeSnippet(url: string, key: string | null): string {
  return [
    'services:',
    '  flightdeck-agent:',
    `    image: ${AGENT_IMAGE}`,
    '    restart: unless-stopped',
    '    pid: host',
    '    network_mode: host',
    '    environment:',
    `      FLIGHTDECK_URL: ${yamlValue(serverBase(url))}`,
    `      FLIGHTDECK_KEY: ${key === null ? `"${KEY_PLACEHOLDER}"` : yamlValue(key)}`,
    '    volumes:',
    '      - /proc:/host/proc:ro',
    '      - /sys:/host/sys:ro',
    '      - /:/rootfs:ro,rslave',
    '      - /var/run/docker.sock:/var/run/docker.sock:ro',
    '      - flightdeck-agent:/var/lib/flightdeck-agent',
    'volumes:',
    '  flightdeck-agent:',
  ].join('\n');
}

/**
 * Elevated PowerShell: downloads the exe and install.ps1 (the key as bearer token) into one folder,
 * since install.ps1 installs the exe found beside it, then runs install.ps1 with -Url and -Key.
 */
export function windowsCommands(url: string, key: string | null): string {
  const base = serverBase(url);
  const k = key ?? KEY_PLACEHOLDER;
  return [
    "$dir = Join-Path $env:TEMP 'flightdeck-agent'",
    'New-Item -ItemType Directory -Force -Path $dir | Out-Null',
    `$auth = @{ Authorization = ${psString(`Bearer ${k}`)} }`,
    `Invoke-WebRequest -UseBasicParsing -Headers $auth -Uri ${psString(`${base}/api/downloads/agent/windows-x64`)} -OutFile "$dir\\flightdeck-agent.exe"`,
    `Invoke-WebRequest -UseBasicParsing -Headers $auth -Uri ${psString(`${base}/api/downloads/agent/windows-x64/install.ps1`)} -OutFile "$dir\\install.ps1"`,
    `powershell -ExecutionPolicy Bypass -File "$dir\\install.ps1" -Url ${psString(base)} -Key ${psString(k)}`,
  ].join('\n');
}
