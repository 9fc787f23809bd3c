/**
 * The PowerShell the Windows collectors run: one CIM query per class, all answered in one JSON
 * document per run (DESIGN section 1). Keys of the document are the class names; a class that
 * cannot be read is `null` and its error message is under `errors`.
 */

/** One CIM class and the properties read from it. */
export interface CimQuery {
  className: string;
  properties: readonly string[];
  /** A WQL condition, e.g. `DriveType=3`. */
  filter?: string;
  /** Read only for the inventory, which is refreshed now and then rather than every run. */
  inventory?: boolean;
}

export const PROCESSOR = 'Win32_PerfFormattedData_PerfOS_Processor';
export const OPERATING_SYSTEM = 'Win32_OperatingSystem';
export const MEMORY = 'Win32_PerfFormattedData_PerfOS_Memory';
export const SYSTEM = 'Win32_PerfFormattedData_PerfOS_System';
export const LOGICAL_DISK = 'Win32_LogicalDisk';
export const PHYSICAL_DISK = 'Win32_PerfRawData_PerfDisk_PhysicalDisk';
export const NETWORK_INTERFACE = 'Win32_PerfRawData_Tcpip_NetworkInterface';
export const SERVICE = 'Win32_Service';
export const COMPUTER_SYSTEM = 'Win32_ComputerSystem';
export const ADAPTER_CONFIGURATION = 'Win32_NetworkAdapterConfiguration';

/**
 * Formatted (already per-second or percent) classes where Windows computes a value from its own two
 * readings; raw counters where the agent needs rates over its own interval (disks, network), like
 * the Linux collectors do with /proc.
 */
export const WINDOWS_QUERIES: readonly CimQuery[] = [
  {
    className: PROCESSOR,
    properties: [
      'Name',
      'PercentUserTime',
      'PercentPrivilegedTime',
      'PercentIdleTime',
      'PercentInterruptTime',
    ],
  },
  {
    className: OPERATING_SYSTEM,
    properties: [
      'TotalVisibleMemorySize',
      'FreePhysicalMemory',
      'SizeStoredInPagingFiles',
      'FreeSpaceInPagingFiles',
      'TotalVirtualMemorySize',
      'FreeVirtualMemory',
      'LastBootUpTime',
      'Caption',
      'Version',
      'BuildNumber',
      'OSArchitecture',
      'CSName',
    ],
  },
  { className: MEMORY, properties: ['CommittedBytes', 'CommitLimit', 'PageFaultsPersec'] },
  { className: SYSTEM, properties: ['Processes', 'ProcessorQueueLength', 'SystemUpTime'] },
  { className: LOGICAL_DISK, properties: ['DeviceID', 'Size', 'FreeSpace'], filter: 'DriveType=3' },
  {
    className: PHYSICAL_DISK,
    properties: [
      'Name',
      'DiskReadsPersec',
      'DiskWritesPersec',
      'DiskReadBytesPersec',
      'DiskWriteBytesPersec',
      'PercentIdleTime',
      'PercentIdleTime_Base',
      'Timestamp_Sys100NS',
    ],
  },
  {
    className: NETWORK_INTERFACE,
    properties: [
      'Name',
      'BytesReceivedPersec',
      'BytesSentPersec',
      'PacketsReceivedPersec',
      'PacketsSentPersec',
      'PacketsReceivedErrors',
      'PacketsOutboundErrors',
      'PacketsReceivedDiscarded',
      'PacketsOutboundDiscarded',
      'Timestamp_Sys100NS',
    ],
  },
  { className: SERVICE, properties: ['Name', 'DisplayName', 'State', 'StartMode'] },
  {
    className: COMPUTER_SYSTEM,
    properties: ['NumberOfLogicalProcessors', 'TotalPhysicalMemory'],
    inventory: true,
  },
  { className: ADAPTER_CONFIGURATION, properties: ['IPAddress'], filter: 'IPEnabled=TRUE', inventory: true },
];

/**
 * Written once when the shell starts. Output is switched to UTF-8 without a byte order mark (the
 * console's OEM code page would mangle service names in other languages), progress bars are
 * silenced, and `Get-FdCim` reads one class: its instances with the chosen properties (one
 * instance comes out as an object, several as an array), or nothing, with the error kept by class.
 */
export const WINDOWS_PRELUDE = [
  "$ProgressPreference = 'SilentlyContinue'",
  'try { [Console]::OutputEncoding = New-Object System.Text.UTF8Encoding $false } catch { }',
  'function Get-FdCim([string]$Class, [string[]]$Property, [string]$Filter, [hashtable]$Errors) { ' +
    "try { $a = @{ ClassName = $Class; ErrorAction = 'Stop' }; if ($Filter) { $a.Filter = $Filter }; " +
    'Get-CimInstance @a | Select-Object -Property $Property } ' +
    'catch { $Errors[$Class] = $_.Exception.Message } }',
].join('; ');

const quote = (text: string) => `'${text.replace(/'/g, "''")}'`;

/**
 * The line of one run: every query (the inventory ones only when asked), then the document as
 * one line of compressed JSON, written straight to stdout so no formatting or line wrapping of the
 * host gets in the way.
 */
export function windowsScript(options: { inventory: boolean }): string {
  const parts = ['$e = @{}', '$d = [ordered]@{}'];
  for (const q of WINDOWS_QUERIES) {
    if (q.inventory && !options.inventory) continue;
    const props = `@(${q.properties.map(quote).join(',')})`;
    parts.push(
      `$d[${quote(q.className)}] = Get-FdCim ${quote(q.className)} ${props} ${quote(q.filter ?? '')} $e`,
    );
  }
  parts.push("$d['errors'] = $e");
  parts.push('[Console]::Out.WriteLine((ConvertTo-Json -InputObject $d -Compress -Depth 4))');
  return parts.join('; ');
}
