# Installs the Cloud Portal backup agent (portal-agent) on Windows and links this machine with a one-time
# linking code. Served by the portal, which fills in its address (and the code the one-liner asked for).
# Run in PowerShell as Administrator:  irm 'https://portal/public/downloads/agent/install.ps1?code=…' | iex
# Options through the environment (iex takes no arguments): PORTAL_LINKING_CODE, PORTAL_AGENT_NAME,
# PORTAL_AGENT_UNINSTALL=1. Safe to run again: one scheduled task, one machine (linked again with a new code).
#
# Where: %ProgramFiles%\PortalAgent (the agent, run by Node.js 20+), %ProgramData%\PortalAgent\config.json
# (readable by Administrators and SYSTEM only). The service: a scheduled task "PortalAgent" that runs
# `portal-agent run` as SYSTEM at every boot and restarts it when it stops (a Node program is not a Windows
# service binary, and nothing else is downloaded to wrap it).
$ErrorActionPreference = 'Stop'

$Server = '@@SERVER@@'
$Code = if ($env:PORTAL_LINKING_CODE) { $env:PORTAL_LINKING_CODE } else { '@@CODE@@' }
$Package = '@@PACKAGE@@'
$Alphabet = '@@ALPHABET@@'
$BundlePath = '@@BUNDLE_PATH@@'
$ResticHint = '@@HINT_WINDOWS@@'
$TaskName = 'PortalAgent'
$InstallDir = Join-Path $env:ProgramFiles 'PortalAgent'
$ConfigDir = Join-Path $env:ProgramData 'PortalAgent'
$Config = Join-Path $ConfigDir 'config.json'
$Bundle = Join-Path $InstallDir 'portal-agent.cjs'

function Say($text) { Write-Host "portal-agent installer: $text" }
function Fail($text) { Write-Host "portal-agent installer: $text" -ForegroundColor Red; exit 1 }

$principal = New-Object Security.Principal.WindowsPrincipal([Security.Principal.WindowsIdentity]::GetCurrent())
if (-not $principal.IsInRole([Security.Principal.WindowsBuiltInRole]::Administrator)) {
  Fail 'run PowerShell as Administrator: the agent is installed for the whole machine. Nothing was changed.'
}

function Stop-Agent {
  if (Get-ScheduledTask -TaskName $TaskName -ErrorAction SilentlyContinue) {
    Stop-ScheduledTask -TaskName $TaskName -ErrorAction SilentlyContinue
    Unregister-ScheduledTask -TaskName $TaskName -Confirm:$false
  }
}

if ($env:PORTAL_AGENT_UNINSTALL -eq '1') {
  Stop-Agent
  $node = (Get-Command node -ErrorAction SilentlyContinue).Source
  if ($node -and (Test-Path $Config) -and (Test-Path $Bundle)) {
    & $node $Bundle unlink --config $Config
    if ($LASTEXITCODE -ne 0) { Say 'could not unlink at the portal (above); the credential is deleted here anyway' }
  }
  Remove-Item -Recurse -Force $InstallDir, $ConfigDir -ErrorAction SilentlyContinue
  Say "uninstalled: removed the scheduled task $TaskName, $InstallDir and $ConfigDir."
  Say 'The machine and its backups stay in the portal; delete the machine there to remove them.'
  exit 0
}

$restic = (Get-Command restic -ErrorAction SilentlyContinue).Source
if (-not $restic) { Fail "restic is not installed, and the agent backs up with it. Install it first ($ResticHint), open a new PowerShell and run this again. Nothing was changed." }
$node = (Get-Command node -ErrorAction SilentlyContinue).Source
if (-not $node) { Fail 'Node.js 20 or later is needed (winget install OpenJS.NodeJS.LTS). Nothing was changed.' }
$major = [int]((& $node -p 'process.versions.node').Split('.')[0])
if ($major -lt 20) { Fail "Node.js $major is too old: the agent needs 20 or later. Nothing was changed." }

if ($Code) {
  $compact = ($Code -replace '[\s-]', '').ToUpperInvariant()
  if ($compact.Length -ne 12 -or ($compact.ToCharArray() | Where-Object { -not $Alphabet.Contains($_) })) {
    Fail "'$Code' is not a linking code (12 letters and digits, as XXXX-XXXX-XXXX). Nothing was changed."
  }
} elseif (-not (Test-Path $Config)) {
  Fail "no linking code: make one in the portal ($Server, 'Link a machine') and run the line it shows. Nothing was changed."
}

New-Item -ItemType Directory -Force -Path $InstallDir, $ConfigDir | Out-Null
# Only Administrators and SYSTEM may read the credential.
icacls $ConfigDir /inheritance:r /grant:r 'Administrators:(OI)(CI)F' 'SYSTEM:(OI)(CI)F' | Out-Null
Stop-Agent
Invoke-WebRequest -UseBasicParsing -Uri "$Server$BundlePath" -OutFile "$Bundle.download"
Move-Item -Force "$Bundle.download" $Bundle
Say "installed $(& $node $Bundle --version) at $Bundle"

if ($Code) {
  $arguments = @('link', '--server', $Server, '--code', $Code, '--config', $Config)
  if ($Package) { $arguments += @('--package', $Package) }
  if ($env:PORTAL_AGENT_NAME) { $arguments += @('--name', $env:PORTAL_AGENT_NAME) }
  & $node $Bundle @arguments
  if ($LASTEXITCODE -ne 0) {
    if (-not (Test-Path $Config)) { Fail 'the machine is not linked (above). Make a new code in the portal and run the line it shows again.' }
    Say "this code did not link (above); the machine stays linked as before ($Config)"
  }
}

$action = New-ScheduledTaskAction -Execute $node -Argument "`"$Bundle`" run --config `"$Config`""
$trigger = New-ScheduledTaskTrigger -AtStartup
$settings = New-ScheduledTaskSettingsSet -RestartCount 999 -RestartInterval (New-TimeSpan -Minutes 1) `
  -ExecutionTimeLimit ([TimeSpan]::Zero) -AllowStartIfOnBatteries -DontStopIfGoingOnBatteries
$system = New-ScheduledTaskPrincipal -UserId 'SYSTEM' -LogonType ServiceAccount -RunLevel Highest
Register-ScheduledTask -TaskName $TaskName -Action $action -Trigger $trigger -Settings $settings -Principal $system | Out-Null
Start-ScheduledTask -TaskName $TaskName
Say "the agent runs as the scheduled task $TaskName (as SYSTEM), started now and at every boot"
Say "done. See the machine in the portal: $Server"
