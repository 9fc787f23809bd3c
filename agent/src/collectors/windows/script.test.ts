import { describe, expect, it } from 'vitest';
import { fixtureDocument } from './fixtures/load';
import { WINDOWS_PRELUDE, WINDOWS_QUERIES, windowsScript } from './script';

function balanced(line: string): boolean {
  const pairs: Record<string, string> = { ')': '(', '}': '{', ']': '[' };
  const stack: string[] = [];
  let quoted = false;
  for (const ch of line) {
    if (ch === "'") quoted = !quoted;
    if (quoted) continue;
    if ('({['.includes(ch)) stack.push(ch);
    else if (ch in pairs && stack.pop() !== pairs[ch]) return false;
  }
  return stack.length === 0 && !quoted;
}

describe('windowsScript', () => {
  it('is one line with balanced quotes and brackets, as PowerShell reading stdin needs', () => {
    for (const line of [
      WINDOWS_PRELUDE,
      windowsScript({ inventory: true }),
      windowsScript({ inventory: false }),
    ]) {
      expect(line).not.toMatch(/[\r\n]/);
      expect(balanced(line), line).toBe(true);
    }
  });

  it('queries every class with its properties and filter, and prints compressed JSON', () => {
    const script = windowsScript({ inventory: true });
    for (const q of WINDOWS_QUERIES) {
      expect(script).toContain(
        `Get-FdCim '${q.className}' @(${q.properties.map((p) => `'${p}'`).join(',')})`,
      );
      if (q.filter) expect(script).toContain(`'${q.filter}' $e`);
    }
    expect(script).toContain('ConvertTo-Json -InputObject $d -Compress -Depth 4');
  });

  it('reads the inventory classes only when asked', () => {
    const script = windowsScript({ inventory: false });
    expect(script).not.toContain('Win32_ComputerSystem');
    expect(script).not.toContain('Win32_NetworkAdapterConfiguration');
    expect(script).toContain('Win32_OperatingSystem');
  });

  it('asks for exactly the classes and properties the fixtures hold', () => {
    const doc = fixtureDocument('server-2022-1.out');
    expect([...doc.classes.keys()].sort()).toEqual(WINDOWS_QUERIES.map((q) => q.className).sort());
    for (const q of WINDOWS_QUERIES) {
      const row = doc.classes.get(q.className)?.[0] ?? {};
      expect(Object.keys(row).sort(), q.className).toEqual([...q.properties].sort());
    }
  });
});
