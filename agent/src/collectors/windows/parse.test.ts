import { describe, expect, it } from 'vitest';
import { fixtureDocument } from './fixtures/load';
import { cimDate, instances, num, parseWindowsDocument } from './parse';

describe('parseWindowsDocument', () => {
  it('reads every class of a run as a list of instances', () => {
    const doc = fixtureDocument('server-2022-1.out');
    expect(doc.classes.get('Win32_PerfFormattedData_PerfOS_Processor')?.map((r) => r.Name)).toEqual([
      '0',
      '1',
      '_Total',
    ]);
    // One instance comes out of ConvertTo-Json as an object: it is a list of one here.
    expect(doc.classes.get('Win32_OperatingSystem')).toHaveLength(1);
    expect(doc.classes.get('Win32_Service')).toHaveLength(16);
    expect(doc.errors.size).toBe(0);
  });

  it('keeps escaped characters and date strings as PowerShell 5.1 wrote them', () => {
    const doc = fixtureDocument('server-2022-1.out');
    const acme = doc.classes.get('Win32_Service')?.find((r) => r.Name === 'AcmeBackupAgent');
    expect(acme?.DisplayName).toBe('Acme Backup & Restore Agent');
    expect(doc.classes.get('Win32_OperatingSystem')?.[0]?.LastBootUpTime).toBe('/Date(1795190400500)/');
  });

  it('leaves out a class that could not be read and keeps its error', () => {
    const doc = fixtureDocument('perf-counters-missing.out');
    expect(doc.classes.has('Win32_PerfFormattedData_PerfOS_Processor')).toBe(false);
    expect(doc.classes.has('Win32_OperatingSystem')).toBe(true);
    expect(doc.errors.get('Win32_PerfRawData_Tcpip_NetworkInterface')).toBe('Invalid class');
    expect(doc.errors.size).toBe(5);
  });

  it('unwraps an array PowerShell 5.1 wrote as {value, Count}', () => {
    const doc = fixtureDocument('other-shapes.out');
    expect(doc.classes.get('Win32_PerfFormattedData_PerfOS_Processor')).toHaveLength(3);
  });

  it('takes the last JSON line, after warnings and a byte order mark', () => {
    const parsed = parseWindowsDocument([
      'WARNING: something the host said',
      '\uFEFF{"Win32_LogicalDisk":{"DeviceID":"C:","Size":100,"FreeSpace":40},"errors":{}}',
    ]);
    expect(parsed.doc?.classes.get('Win32_LogicalDisk')).toEqual([
      { DeviceID: 'C:', Size: 100, FreeSpace: 40 },
    ]);
  });

  it('explains output that holds no document or broken JSON', () => {
    expect(parseWindowsDocument([]).problem).toBe('the script printed nothing');
    expect(parseWindowsDocument(['Get-CimInstance : Access denied']).problem).toMatch(
      /no JSON document.*Access denied/,
    );
    expect(parseWindowsDocument(['{"Win32_Service":[{"Name":']).problem).toMatch(/not JSON/);
    expect(parseWindowsDocument(['{"a":1}']).doc?.classes.size).toBe(0);
  });
});

describe('instances', () => {
  it('reads null as no instances, an object as one and an array as several', () => {
    expect(instances(null)).toBeUndefined();
    expect(instances({ Name: '_Total' })).toEqual([{ Name: '_Total' }]);
    expect(instances([{ Name: '0' }, { Name: '_Total' }])).toHaveLength(2);
    expect(instances({ value: [{ Name: '0' }], Count: 1 })).toEqual([{ Name: '0' }]);
    expect(instances([])).toEqual([]);
  });
});

describe('num', () => {
  it('reads numbers and 64-bit numbers written as strings, nothing else', () => {
    expect(num(136912564224)).toBe(136912564224);
    expect(num('136912564224')).toBe(136912564224);
    expect(num('12.5')).toBe(12.5);
    expect(num('')).toBeUndefined();
    expect(num('12 GB')).toBeUndefined();
    expect(num(null)).toBeUndefined();
  });
});

describe('cimDate', () => {
  it('reads /Date(ms)/, with or without an offset', () => {
    expect(cimDate('/Date(1795190400500)/')).toBe(1_795_190_400_500);
    expect(cimDate('/Date(1795190400500+0100)/')).toBe(1_795_190_400_500);
  });

  it('reads a CIM datetime, whose offset is in minutes east of UTC', () => {
    expect(cimDate('20261121003000.500000+060')).toBe(Date.UTC(2026, 10, 20, 23, 30, 0, 500));
    expect(cimDate('20261120183000.000000-300')).toBe(Date.UTC(2026, 10, 20, 23, 30, 0));
  });

  it('reads an ISO string and the object Get-Date serializes to', () => {
    expect(cimDate('2026-11-20T23:30:00.5Z')).toBe(Date.UTC(2026, 10, 20, 23, 30, 0, 500));
    expect(
      cimDate({ value: '/Date(1795190400500)/', DisplayHint: 2, DateTime: 'Friday, 20 November 2026' }),
    ).toBe(1_795_190_400_500);
    expect(cimDate('yesterday')).toBeUndefined();
    expect(cimDate(12)).toBeUndefined();
  });
});
