#!/usr/bin/env bash
# Start a throw-away single-node Ceph (1 mon, 1 OSD, 1 radosgw, no mgr) serving S3 on 127.0.0.1, for the
# tests of the s3 storage provider (apps/server/src/testing/rgw.ts runs it) and for trying the portal with
# a real S3 service by hand. No systemd: daemons are started directly and daemonize themselves; pids in
# $RGW_DIR/run/*.pid. Stop + wipe with rgw-down.sh (same RGW_DIR).
# At the end an admin user for the portal's storage account is made (caps users, buckets, metadata, usage,
# user-policy) and its keys written to $RGW_DIR/admin.env (RGW_ENDPOINT, RGW_ADMIN_ACCESS_KEY,
# RGW_ADMIN_SECRET_KEY).
# Needs (Debian 12): apt-get install -y --no-install-recommends ceph-mon ceph-osd radosgw ceph-common
set -euo pipefail
T0=$EPOCHREALTIME
step() { [ -z "${RGW_TRACE:-}" ] || awk -v a="$EPOCHREALTIME" -v b="$T0" -v m="$*" 'BEGIN{printf "%6.2fs %s\n", a-b, m}' >&2; }

D=${RGW_DIR:-/tmp/rgw-test}          # all state, logs, pid files, keyring
S3_PORT=${RGW_PORT:-7480}            # S3 + admin-ops + IAM port (beast frontend)
MON_PORT=${RGW_MON_PORT:-3300}       # msgr2 port of the monitor
STORE=${RGW_OSD_STORE:-memstore}     # memstore (data in OSD RAM, fastest) or bluestore (a sparse file)
OSD_BYTES=${RGW_OSD_BYTES:-10737418240}  # bluestore's file size (sparse; 10 GiB unless a bench needs more)

if [ -e "$D/ceph.conf" ]; then echo "$D already exists; run rgw-down.sh first" >&2; exit 1; fi
for p in "$S3_PORT" "$MON_PORT"; do   # refuse to start if something already listens there
  if (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then echo "port $p on 127.0.0.1 is busy" >&2; exit 1; fi
done
mkdir -p "$D"/{mon.a,osd.0,run,log,crash,tmp}
FSID=$(cat /proc/sys/kernel/random/uuid)
OSD_UUID=$(cat /proc/sys/kernel/random/uuid)

cat > "$D/ceph.conf" <<EOF
[global]
fsid = $FSID
mon_host = v2:127.0.0.1:$MON_PORT
public_addr = 127.0.0.1
cluster_addr = 127.0.0.1
ms_bind_msgr1 = false
ms_bind_msgr2 = true
keyring = $D/keyring
run_dir = $D/run
crash_dir = $D/crash
tmp_dir = $D/tmp
log_file = $D/log/\$name.log
mon_cluster_log_file = $D/log/cluster.log
pid_file = $D/run/\$name.pid
admin_socket = $D/run/\$name.asok
auth_cluster_required = cephx
auth_service_required = cephx
auth_client_required = cephx
# one OSD: size-1 pools, few PGs, no redundancy warnings
osd_pool_default_size = 1
osd_pool_default_min_size = 1
mon_allow_pool_size_one = true
osd_pool_default_pg_num = 8
osd_pool_default_pgp_num = 8
osd_pool_default_pg_autoscale_mode = off
mon_max_pg_per_osd = 1000
osd_crush_chooseleaf_type = 0
mon_warn_on_pool_no_redundancy = false
mon_warn_on_insecure_global_id_reclaim_allowed = false
mon_allow_pool_delete = true
[client]
# CLI tools (ceph, radosgw-admin): no asok, no per-pid log files
admin_socket =
log_to_file = false
[mon]
mon_data = $D/mon.\$id
mon_initial_members = a
mon_data_avail_warn = 2
mon_data_avail_crit = 1
# default 1 s batching per map change makes every pool create / app enable cost ~1 s
# (measured: start-up 11.4 s -> 0.63 s; first CreateBucket 2.8 s -> 60 ms; first PUT 2.0 s -> 40 ms)
paxos_propose_interval = 0.01
paxos_min_wait = 0.001
[osd]
osd_data = $D/osd.\$id
osd_objectstore = $STORE
memstore_device_bytes = 4294967296
bluestore_block_path = $D/osd.\$id/block.file
bluestore_block_create = true
bluestore_block_size = $OSD_BYTES
bluestore_fsck_on_mount = false
osd_memory_target = 939524096
osd_op_num_shards = 1
osd_op_num_threads_per_shard = 2
[client.rgw.a]
admin_socket = $D/run/\$name.asok
log_to_file = true
rgw_frontends = beast endpoint=127.0.0.1:$S3_PORT
rgw_thread_pool_size = 32
EOF
C="-c $D/ceph.conf"

# One keyring for every entity; ceph-mon --mkfs imports all of it into the auth db,
# so no 'ceph auth add' round-trips are needed later.
ceph-authtool --create-keyring "$D/keyring" --gen-key -n mon. --cap mon 'allow *' >/dev/null
ceph-authtool "$D/keyring" --gen-key -n client.admin --cap mon 'allow *' --cap osd 'allow *' --cap mgr 'allow *' --cap mds 'allow *' >/dev/null
ceph-authtool "$D/keyring" --gen-key -n osd.0 --cap mon 'allow profile osd' --cap osd 'allow *' --cap mgr 'allow profile osd' >/dev/null
ceph-authtool "$D/keyring" --gen-key -n client.rgw.a --cap mon 'allow rw' --cap osd 'allow rwx' --cap mgr 'allow rw' >/dev/null

monmaptool --create --fsid "$FSID" --addv a "[v2:127.0.0.1:$MON_PORT]" "$D/monmap" >/dev/null
ceph-mon $C --mkfs -i a --monmap "$D/monmap" --keyring "$D/keyring"
step mon-mkfs-done
ceph-mon $C -i a 2>>"$D/log/daemon-stderr.log"             # daemonizes; pid in $D/run/mon.a.pid
step mon-started
ceph $C --connect-timeout 30 osd new "$OSD_UUID" 0 >/dev/null   # register osd.0 (its key is already in the auth db)
step osd-registered
ceph-osd $C -i 0 --mkfs --osd-uuid "$OSD_UUID" 2>>"$D/log/osd-mkfs.log"
step osd-mkfs-done
ceph-osd $C -i 0 2>>"$D/log/daemon-stderr.log"             # daemonizes; puts itself into the CRUSH map
step osd-started
radosgw $C -n client.rgw.a 2>>"$D/log/daemon-stderr.log"  # creates its pools, then listens
step rgw-started

for i in $(seq 1 300); do                                    # wait up to 30 s for S3 to answer
  if curl -s -o /dev/null "http://127.0.0.1:$S3_PORT/"; then break; fi
  kill -0 "$(cat "$D/run/client.rgw.a.pid" 2>/dev/null || echo 0)" 2>/dev/null || { echo "radosgw died; see $D/log" >&2; exit 1; }
  sleep 0.1
done
curl -s -o /dev/null "http://127.0.0.1:$S3_PORT/" || { echo "radosgw did not come up; see $D/log" >&2; exit 1; }
step rgw-answering

# The portal's own key: a storage account of type S3 with the RGW admin-ops user API uses it for buckets,
# policies, users and keys. radosgw-admin talks to RADOS directly, so no admin-ops round trip is needed.
ADMIN_UID=${RGW_ADMIN_UID:-portal-admin}
ADMIN_KEY=$(tr -dc 'A-Z0-9' </dev/urandom | head -c 20 || true)
ADMIN_SECRET=$(tr -dc 'A-Za-z0-9' </dev/urandom | head -c 40 || true)
radosgw-admin $C user create --uid="$ADMIN_UID" --display-name="Portal admin" \
  --access-key="$ADMIN_KEY" --secret-key="$ADMIN_SECRET" \
  --caps="users=*;buckets=*;metadata=*;usage=*;user-policy=*" >/dev/null
umask 077
cat > "$D/admin.env" <<EOF
RGW_ENDPOINT=http://127.0.0.1:$S3_PORT
RGW_ADMIN_UID=$ADMIN_UID
RGW_ADMIN_ACCESS_KEY=$ADMIN_KEY
RGW_ADMIN_SECRET_KEY=$ADMIN_SECRET
EOF
step admin-user-created
echo "rgw up: http://127.0.0.1:$S3_PORT  conf=$D/ceph.conf  admin keys: $D/admin.env"
