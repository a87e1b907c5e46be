#!/usr/bin/env bash
# Stop the daemons started by scripts/rgw-up.sh (by their pid files) and delete all state (same RGW_DIR).
# State is thrown away, so SIGKILL is safe and instant; RGW_GRACEFUL=1 sends SIGTERM first, one daemon
# at a time (rgw, osd, mon; ~0.4 s). Do NOT TERM them all at once: radosgw then hangs ~120 s
# waiting for the dead cluster.
set -u
D=${RGW_DIR:-/tmp/rgw-test}
pids=()
for n in client.rgw.a osd.0 mon.a; do
  f="$D/run/$n.pid"
  [ -s "$f" ] || continue
  p=$(cat "$f")
  # only touch the process if it really is a daemon of THIS cluster (pid files can go stale)
  tr '\0' ' ' < "/proc/$p/cmdline" 2>/dev/null | grep -qF -- "$D/ceph.conf" && pids+=("$p")
done
# a killed daemon stays a zombie until PID 1 reaps it (can take ~2 s here): count zombies as gone
alive() { local p s; for p in "$@"; do s=$(awk '{print $3}' "/proc/$p/stat" 2>/dev/null) && [ "$s" != Z ] && return 0; done; return 1; }
if [ ${#pids[@]} -gt 0 ]; then
  if [ -n "${RGW_GRACEFUL:-}" ]; then
    for p in "${pids[@]}"; do
      kill -TERM "$p" 2>/dev/null
      for i in $(seq 1 100); do alive "$p" || break; sleep 0.05; done
    done
  fi
  kill -KILL "${pids[@]}" 2>/dev/null
  for i in $(seq 1 50); do alive "${pids[@]}" || break; sleep 0.05; done
fi
rm -rf "$D"
