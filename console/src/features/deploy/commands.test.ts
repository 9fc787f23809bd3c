import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  dockerComposeSnippet,
  dockerRunCommand,
  KEY_PLACEHOLDER,
  linuxFromPackage,
  linuxOneLiner,
  shellWord,
  windowsCommands,
} from './commands';

const KEY = 'fdk_AbC-123_xyz';
const URL = 'https://monitor.example.com/';

/** The words sh reads from a command line (the command is not run: printf prints its arguments). */
function shWords(line: string): string[] {
  const out = execFileSync('sh', ['-c', `printf '%s\\n' ${line}`], { encoding: 'utf8' });
  return out.trimEnd().split('\n');
}

describe('linux commands', () => {
  it('pipes the server install script to sh with the key', () => {
    expect(linuxOneLiner(URL, KEY)).toBe(
      `curl -fsSL https://monitor.example.com/api/downloads/agent/install.sh | sudo sh -s -- --key ${KEY}`,
    );
  });

  it('puts the placeholder where the key goes when the key is not shown', () => {
    expect(linuxOneLiner(URL, null)).toMatch(/--key <ACCESS_KEY>$/);
    expect(linuxFromPackage(URL, null)).toContain(
      `sudo ./install.sh --url https://monitor.example.com --key ${KEY_PLACEHOLDER}`,
    );
  });

  it('quotes a value the shell would split or expand', () => {
    expect(shellWord("a b'c$d")).toBe(`'a b'\\''c$d'`);
    expect(shWords(shellWord("a b'c$d"))).toEqual(["a b'c$d"]);
    expect(shWords(`--url ${shellWord('http://h:8080/x y')}`)).toEqual(['--url', 'http://h:8080/x y']);
  });
});

describe('docker commands', () => {
  it('passes the variables docker-entrypoint.sh reads and the mounts Dockerfile.agent expects', () => {
    const run = dockerRunCommand(URL, KEY);
    expect(run).toContain('--pid=host --network=host');
    for (const mount of [
      '/proc:/host/proc:ro',
      '/sys:/host/sys:ro',
      '/:/rootfs:ro,rslave',
      '/var/run/docker.sock:/var/run/docker.sock:ro',
      'flightdeck-agent:/var/lib/flightdeck-agent',
    ]) {
      expect(run).toContain(`-v ${mount}`);
    }
    expect(run).toContain(
      `-e FLIGHTDECK_URL=https://monitor.example.com -e FLIGHTDECK_KEY=${KEY} flightdeck/agent`,
    );
    // Each continued line ends with a backslash, so the shell reads one command.
    const words = shWords(run.replace(/^docker run /, ''));
    expect(words.at(-1)).toBe('flightdeck/agent');
    expect(words).toContain(`FLIGHTDECK_KEY=${KEY}`);
  });

  it('writes the same service as compose YAML, quoting the placeholder', () => {
    const yaml = dockerComposeSnippet(URL, null);
    expect(yaml).toContain('      FLIGHTDECK_URL: https://monitor.example.com\n');
    expect(yaml).toContain('      FLIGHTDECK_KEY: "<ACCESS_KEY>"\n');
    expect(yaml).toContain('    pid: host\n    network_mode: host\n');
    expect(dockerComposeSnippet(URL, KEY)).toContain(`FLIGHTDECK_KEY: ${KEY}\n`);
  });
});

describe('windows commands', () => {
  it('downloads the exe and install.ps1 with the key, then runs install.ps1 with -Url and -Key', () => {
    const lines = windowsCommands(URL, KEY).split('\n');
    expect(lines[2]).toBe(`$auth = @{ Authorization = 'Bearer ${KEY}' }`);
    expect(lines[3]).toContain("-Uri 'https://monitor.example.com/api/downloads/agent/windows-x64'");
    expect(lines[3]).toContain('-OutFile "$dir\\flightdeck-agent.exe"');
    expect(lines[4]).toContain('/api/downloads/agent/windows-x64/install.ps1\' -OutFile "$dir\\install.ps1"');
    expect(lines[5]).toBe(
      `powershell -ExecutionPolicy Bypass -File "$dir\\install.ps1" -Url 'https://monitor.example.com' -Key '${KEY}'`,
    );
  });

  it('doubles a single quote inside a PowerShell string', () => {
    expect(windowsCommands("http://it's", null)).toContain("-Url 'http://it''s'");
  });
});
