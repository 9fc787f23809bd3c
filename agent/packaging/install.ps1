# Installs the Flightdeck agent on this Windows host, or re-installs it (the program and the config
# are replaced; the host keeps its key, its server and its history). From an elevated PowerShell:
#   powershell -ExecutionPolicy Bypass -File .\install.ps1 -Url https://flightdeck.example.com -Key fdk_...
#
# The agent runs at start-up as SYSTEM from a scheduled task, restarted when it stops: the program is
# a console program, and a Windows service must answer the service control manager, which it cannot.
param(
  [Parameter(Mandatory = $true)][string]$Url,
  [Parameter(Mandatory = $true)][string]$Key,
  [string]$Nats,
  [int]$Interval = 0
)
$ErrorActionPreference = 'Stop'

$identity = [Security.Principal.WindowsPrincipal][Security.Principal.WindowsIdentity]::GetCurrent()
if (-not $identity.IsInRole([Security.Principal.WindowsBuiltInRole]::Administrator)) {
  Write-Error 'Run install.ps1 from an elevated PowerShell (Run as administrator).'
  exit 1
}

$programDir = Join-Path $env:ProgramFiles 'Flightdeck'
$exe = Join-Path $programDir 'flightdeck-agent.exe'
$dataDir = Join-Path $env:ProgramData 'Flightdeck'
$task = 'Flightdeck Agent'

# Stop the running agent so that its program can be replaced.
if (Get-ScheduledTask -TaskName $task -ErrorAction SilentlyContinue) {
  Stop-ScheduledTask -TaskName $task -ErrorAction SilentlyContinue
}
Get-Process -Name 'flightdeck-agent' -ErrorAction SilentlyContinue |
  Where-Object { $_.Path -eq $exe } | Stop-Process -Force
Start-Sleep -Seconds 1

New-Item -ItemType Directory -Force -Path $programDir | Out-Null
Copy-Item -Force (Join-Path $PSScriptRoot 'flightdeck-agent.exe') $exe
Write-Host "Installed $exe"

# The config file holds the access key: only SYSTEM and Administrators may read the data folder.
New-Item -ItemType Directory -Force -Path $dataDir | Out-Null
& icacls.exe $dataDir /inheritance:r /grant:r '*S-1-5-18:(OI)(CI)F' '*S-1-5-32-544:(OI)(CI)F' | Out-Null
if ($LASTEXITCODE -ne 0) { Write-Error "Could not restrict access to $dataDir"; exit 1 }

$register = @('register', '--url', $Url, '--key', $Key)
if ($Nats) { $register += @('--nats', $Nats) }
if ($Interval -gt 0) { $register += @('--interval', "$Interval") }
& $exe @register
if ($LASTEXITCODE -ne 0) { exit $LASTEXITCODE }

$action = New-ScheduledTaskAction -Execute $exe -Argument 'run' -WorkingDirectory $dataDir
$trigger = New-ScheduledTaskTrigger -AtStartup
$principal = New-ScheduledTaskPrincipal -UserId 'SYSTEM' -LogonType ServiceAccount -RunLevel Highest
$settings = New-ScheduledTaskSettingsSet -RestartCount 999 -RestartInterval (New-TimeSpan -Minutes 1) `
  -ExecutionTimeLimit ([TimeSpan]::Zero) -StartWhenAvailable -AllowStartIfOnBatteries -DontStopIfGoingOnBatteries
Register-ScheduledTask -TaskName $task -Action $action -Trigger $trigger -Principal $principal `
  -Settings $settings -Force | Out-Null
Start-ScheduledTask -TaskName $task
Write-Host "Scheduled task '$task' registered and started."
Start-Sleep -Seconds 2
& $exe status
