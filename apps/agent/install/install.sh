#!/bin/sh
# Installs the Cloud Portal backup agent (portal-agent) on Linux or macOS as a service that starts at boot,
# and links this machine with a one-time linking code. Served by the portal, which fills in its address
# (and the code, when the one-liner of 'Link a machine' asked for it). Safe to run again: one service,
# one machine (linked again with a new code).
#
#   sh install.sh [--code XXXX-XXXX-XXXX] [--package ID] [--name NAME] [--user | --prefix DIR]
#   sh install.sh --uninstall [--user | --prefix DIR]
#
# As root: /usr/local/bin/portal-agent, /etc/portal-agent/config.json, a systemd unit or a launchd daemon.
# --user (the default when not root): ~/.local/bin, ~/.config/portal-agent, a systemd user unit or a launchd agent.
# --prefix DIR: everything under DIR and no service manager: the agent is started in the background.
set -eu

SERVER='@@SERVER@@'
CODE="${PORTAL_LINKING_CODE:-@@CODE@@}"
PACKAGE='@@PACKAGE@@'
ALPHABET='@@ALPHABET@@'
BUNDLE_PATH='@@BUNDLE_PATH@@'
EXECUTABLE_PATH='@@EXECUTABLE_PATH@@'
HINT_DEBIAN='@@HINT_DEBIAN@@'
HINT_FEDORA='@@HINT_FEDORA@@'
HINT_MACOS='@@HINT_MACOS@@'
HINT_OTHER='@@HINT_OTHER@@'
NAME="${PORTAL_AGENT_NAME:-}"
MODE=''
PREFIX="${PORTAL_AGENT_PREFIX:-}"
ACTION=install
SERVICE=portal-agent
LAUNCHD_LABEL=com.cloudportal.agent

say() { printf 'portal-agent installer: %s\n' "$*"; }
fail() {
  printf 'portal-agent installer: %s\n' "$*" >&2
  exit 1
}
value_of() { [ $# -ge 2 ] && [ -n "$2" ] || fail "option $1 needs a value"; }

while [ $# -gt 0 ]; do
  case "$1" in
  --code) value_of "$@"; CODE="$2"; shift 2 ;;
  --package) value_of "$@"; PACKAGE="$2"; shift 2 ;;
  --name) value_of "$@"; NAME="$2"; shift 2 ;;
  --prefix) value_of "$@"; PREFIX="$2"; shift 2 ;;
  --user) MODE=user; shift ;;
  --uninstall) ACTION=uninstall; shift ;;
  -h | --help)
    echo 'Usage: sh install.sh [--code XXXX-XXXX-XXXX] [--package ID] [--name NAME] [--user | --prefix DIR]'
    echo '       sh install.sh --uninstall [--user | --prefix DIR]'
    exit 0
    ;;
  *) fail "unknown option $1 (options: --code, --package, --name, --user, --prefix DIR, --uninstall)" ;;
  esac
done

SYSTEM=$(uname -s)
case "$SYSTEM" in
Linux | Darwin) ;;
*) fail "this installer is for Linux and macOS; on Windows use install.ps1 (see the manual at $SERVER/manual)" ;;
esac

if [ -n "$PREFIX" ]; then
  MODE=prefix
  mkdir -p "$PREFIX"
  PREFIX=$(cd "$PREFIX" && pwd)
elif [ -z "$MODE" ]; then
  if [ "$(id -u)" = 0 ]; then MODE=system; else MODE=user; fi
fi
case "$MODE" in
system)
  BIN_DIR=/usr/local/bin
  CONFIG_DIR=/etc/portal-agent
  LOG_DIR=/var/log/portal-agent
  ;;
user)
  BIN_DIR="$HOME/.local/bin"
  CONFIG_DIR="${XDG_CONFIG_HOME:-$HOME/.config}/portal-agent"
  LOG_DIR="$CONFIG_DIR/state/logs"
  ;;
prefix)
  BIN_DIR="$PREFIX/bin"
  CONFIG_DIR="$PREFIX/etc/portal-agent"
  LOG_DIR="$PREFIX/var/log"
  ;;
esac
AGENT="$BIN_DIR/portal-agent"
LIB_DIR="$(dirname "$BIN_DIR")/lib/portal-agent"
CONFIG="$CONFIG_DIR/config.json"
PID_FILE="$CONFIG_DIR/agent.pid"
LOG_FILE="$LOG_DIR/service.log"

# --- The service manager this install uses: systemd, launchd, or none (the agent in the background) ---
MANAGER=none
NO_MANAGER_WHY="--prefix installs use no service manager"
if [ "$MODE" != prefix ]; then
  if [ "$SYSTEM" = Darwin ]; then
    MANAGER=launchd
  elif [ -d /run/systemd/system ] && command -v systemctl >/dev/null 2>&1; then
    if [ "$MODE" = system ] || systemctl --user show-environment >/dev/null 2>&1; then MANAGER=systemd; fi
    NO_MANAGER_WHY="systemd has no session for this user (systemctl --user does not answer)"
  else
    NO_MANAGER_WHY="systemd is not running on this machine (process 1 is $(ps -p 1 -o comm= 2>/dev/null || echo unknown))"
  fi
fi
if [ "$SYSTEM" = Darwin ]; then
  if [ "$MODE" = system ]; then PLIST="/Library/LaunchDaemons/$LAUNCHD_LABEL.plist"; else PLIST="$HOME/Library/LaunchAgents/$LAUNCHD_LABEL.plist"; fi
fi
if [ "$MODE" = system ]; then UNIT="/etc/systemd/system/$SERVICE.service"; else UNIT="${XDG_CONFIG_HOME:-$HOME/.config}/systemd/user/$SERVICE.service"; fi
systemctl_() { if [ "$MODE" = system ]; then systemctl "$@"; else systemctl --user "$@"; fi; }

# Stops the agent this installer started in the background earlier (its pid file), waiting for it to end.
stop_background() {
  [ -f "$PID_FILE" ] || return 0
  pid=$(cat "$PID_FILE")
  if [ -n "$pid" ] && ps -p "$pid" -o args= 2>/dev/null | grep -q portal-agent; then
    kill "$pid" 2>/dev/null || true
    waited=0
    while ps -p "$pid" >/dev/null 2>&1 && [ "$waited" -lt 20 ]; do
      sleep 0.5
      waited=$((waited + 1))
    done
    ps -p "$pid" >/dev/null 2>&1 && kill -9 "$pid" 2>/dev/null || true
    say "stopped the agent that was running in the background (pid $pid)"
  fi
  rm -f "$PID_FILE"
}

stop_service() {
  case "$MANAGER" in
  systemd)
    if [ -f "$UNIT" ]; then
      systemctl_ disable --now "$SERVICE" >/dev/null 2>&1 || true
      rm -f "$UNIT"
      systemctl_ daemon-reload || true
      say "stopped and removed the systemd service $SERVICE ($UNIT)"
    fi
    ;;
  launchd)
    if [ -f "$PLIST" ]; then
      launchctl unload -w "$PLIST" >/dev/null 2>&1 || true
      rm -f "$PLIST"
      say "stopped and removed the launchd job $LAUNCHD_LABEL ($PLIST)"
    fi
    ;;
  esac
  stop_background
}

if [ "$ACTION" = uninstall ]; then
  stop_service
  if [ -f "$CONFIG" ] && [ -x "$AGENT" ]; then
    # Gives up the machine's credential at the portal; the machine and its backups stay there.
    "$AGENT" unlink --config "$CONFIG" </dev/null || say "could not unlink at the portal (above); the credential is deleted here anyway"
  fi
  rm -rf "$CONFIG_DIR" "$LIB_DIR"
  rm -f "$AGENT"
  [ "$MODE" = system ] && rm -rf "$LOG_DIR"
  say "uninstalled: removed $AGENT, $LIB_DIR and $CONFIG_DIR."
  say "The machine and its backups stay in the portal; delete the machine there to remove them."
  exit 0
fi

# --- Before changing anything: restic, the code, a way to download, Node.js where there is no executable ---
if ! command -v restic >/dev/null 2>&1; then
  if [ "$SYSTEM" = Darwin ]; then
    hint="$HINT_MACOS"
  elif [ -f /etc/debian_version ]; then
    hint="$HINT_DEBIAN"
  elif [ -f /etc/fedora-release ] || [ -f /etc/redhat-release ]; then
    hint="$HINT_FEDORA"
  else
    hint="see $HINT_OTHER"
  fi
  fail "restic is not installed, and the agent backs up with it. Install it first ($hint), then run this again. Nothing was changed."
fi
RESTIC_DIR=$(dirname "$(command -v restic)")

if [ -n "$CODE" ]; then
  compact=$(printf '%s' "$CODE" | tr -d ' -' | tr 'abcdefghijklmnopqrstuvwxyz' 'ABCDEFGHIJKLMNOPQRSTUVWXYZ')
  case "$compact" in
  *[!$ALPHABET]* | '') fail "'$CODE' is not a linking code (12 letters and digits, as XXXX-XXXX-XXXX). Nothing was changed." ;;
  esac
  [ ${#compact} -eq 12 ] || fail "'$CODE' is not a linking code (12 letters and digits, as XXXX-XXXX-XXXX). Nothing was changed."
elif [ ! -f "$CONFIG" ]; then
  fail "no linking code: make one in the portal ($SERVER, 'Link a machine') and run the line it shows. Nothing was changed."
fi
case "$PACKAGE" in
'' | *[!0-9]*) [ -z "$PACKAGE" ] || fail "--package needs a backup package id, not '$PACKAGE'" ;;
esac

if command -v curl >/dev/null 2>&1; then
  download() { curl -fsSL -o "$2" "$SERVER$1"; }
elif command -v wget >/dev/null 2>&1; then
  download() { wget -q -O "$2" "$SERVER$1"; }
else
  fail "neither curl nor wget is installed: install one of them and run this again"
fi

if [ "$SYSTEM" = Linux ] && [ "$(uname -m)" = x86_64 ]; then
  KIND=executable
else
  KIND=bundle
  NODE=$(command -v node || true)
  [ -n "$NODE" ] || fail "Node.js 20 or later is needed on this machine (there is a self-contained agent for Linux x64 only). Install Node.js, then run this again."
  "$NODE" -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 20 ? 0 : 1)' ||
    fail "Node.js $("$NODE" --version) is too old: the agent needs 20 or later"
fi

# --- The program ---
mkdir -p "$BIN_DIR" "$LIB_DIR"
mkdir -p "$CONFIG_DIR" && chmod 700 "$CONFIG_DIR"
tmp="$LIB_DIR/.download.$$"
trap 'rm -f "$tmp"' EXIT
if [ "$KIND" = executable ]; then
  download "$EXECUTABLE_PATH" "$tmp" || fail "could not download the agent from $SERVER$EXECUTABLE_PATH"
  chmod 755 "$tmp"
  # A new file moved over the old one: an agent still running keeps its copy until it restarts.
  mv -f "$tmp" "$AGENT"
  rm -f "$LIB_DIR/portal-agent.cjs"
else
  download "$BUNDLE_PATH" "$tmp" || fail "could not download the agent from $SERVER$BUNDLE_PATH"
  mv -f "$tmp" "$LIB_DIR/portal-agent.cjs"
  rm -f "$AGENT"
  printf '#!/bin/sh\nexec "%s" "%s" "$@"\n' "$NODE" "$LIB_DIR/portal-agent.cjs" >"$AGENT"
  chmod 755 "$AGENT"
fi
say "installed $("$AGENT" --version </dev/null) at $AGENT"

# --- The link ---
if [ -n "$CODE" ]; then
  set -- link --server "$SERVER" --code "$CODE" --config "$CONFIG"
  [ -z "$PACKAGE" ] || set -- "$@" --package "$PACKAGE"
  [ -z "$NAME" ] || set -- "$@" --name "$NAME"
  # </dev/null: with curl … | sh the rest of this script is on standard input.
  if ! "$AGENT" "$@" </dev/null; then
    [ -f "$CONFIG" ] || fail "the machine is not linked (above). Make a new code in the portal and run the line it shows again."
    say "this code did not link (above); the machine stays linked as before ($CONFIG)"
  fi
else
  say "no linking code given: the machine stays linked as before ($CONFIG)"
fi

# --- The service: stop what an earlier install started, then start one ---
stop_service
case "$MANAGER" in
systemd)
  mkdir -p "$(dirname "$UNIT")"
  if [ "$MODE" = system ]; then target=multi-user.target; else target=default.target; fi
  cat >"$UNIT" <<EOF
[Unit]
Description=Cloud Portal backup agent
Wants=network-online.target
After=network-online.target

[Service]
ExecStart=$AGENT run --config $CONFIG
Environment=PATH=$RESTIC_DIR:/usr/local/bin:/usr/bin:/bin
Restart=always
RestartSec=10
KillSignal=SIGTERM
TimeoutStopSec=30

[Install]
WantedBy=$target
EOF
  systemctl_ daemon-reload
  systemctl_ enable --now "$SERVICE" >/dev/null
  say "the agent runs as the systemd service $SERVICE ($UNIT), started now and at every boot"
  [ "$MODE" = system ] || say "as a user service it starts at boot only with lingering on: sudo loginctl enable-linger $(id -un)"
  ;;
launchd)
  mkdir -p "$(dirname "$PLIST")" "$LOG_DIR"
  cat >"$PLIST" <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
  <key>Label</key><string>$LAUNCHD_LABEL</string>
  <key>ProgramArguments</key>
  <array><string>$AGENT</string><string>run</string><string>--config</string><string>$CONFIG</string></array>
  <key>EnvironmentVariables</key><dict><key>PATH</key><string>$RESTIC_DIR:/usr/local/bin:/usr/bin:/bin</string></dict>
  <key>RunAtLoad</key><true/>
  <key>KeepAlive</key><true/>
  <key>StandardErrorPath</key><string>$LOG_FILE</string>
</dict>
</plist>
EOF
  launchctl load -w "$PLIST"
  say "the agent runs as the launchd job $LAUNCHD_LABEL ($PLIST), started now and at every boot"
  ;;
none)
  mkdir -p "$LOG_DIR"
  PATH="$RESTIC_DIR:$PATH" nohup "$AGENT" run --config "$CONFIG" >>"$LOG_FILE" 2>&1 </dev/null &
  echo $! >"$PID_FILE"
  sleep 1
  ps -p "$(cat "$PID_FILE")" >/dev/null 2>&1 || fail "the agent stopped at once; see $LOG_FILE"
  say "NOT installed as a service: $NO_MANAGER_WHY."
  say "The agent was started in the background instead (pid $(cat "$PID_FILE"), log $LOG_FILE)."
  say "It does not start again by itself after a reboot: start it with"
  say "  nohup $AGENT run --config $CONFIG >>$LOG_FILE 2>&1 &"
  ;;
esac

# --- Connected? (the agent writes its connection state; a firewall or a wrong address shows here) ---
waited=0
while [ "$waited" -lt 30 ]; do
  if "$AGENT" status --config "$CONFIG" </dev/null 2>/dev/null | grep -q '^Connection: *connected'; then
    say "the agent is connected to the portal. See the machine there: $SERVER"
    exit 0
  fi
  sleep 0.5
  waited=$((waited + 1))
done
say "the agent is running but not connected to the portal yet; see: $AGENT status --config $CONFIG"
