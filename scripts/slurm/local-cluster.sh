#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, for trying `queens count --slurm` and for the
# integration test: munge and the two Slurm daemons started by hand (no systemd, no cgroups),
# everything under one state directory.
#
#   scripts/slurm/local-cluster.sh start [DIR]   # prints `export SLURM_CONF=...` to eval
#   scripts/slurm/local-cluster.sh stop [DIR]    # stops the daemons by their PIDs
#
# Needs root and Debian's `slurm-wlm` and `munge` packages
# (apt-get install --no-install-recommends slurm-wlm munge). DIR defaults to
# /tmp/queens-slurm.
set -euo pipefail

command=${1:-}
state=${2:-/tmp/queens-slurm}

start() {
  for tool in munged mungekey slurmctld slurmd sinfo; do
    command -v "$tool" >/dev/null || { echo "error: $tool not found (install slurm-wlm and munge)" >&2; exit 2; }
  done
  [ "$(id -u)" -eq 0 ] || { echo "error: the local cluster runs its daemons as root" >&2; exit 2; }
  mkdir -p "$state"/{key,munge,spool/ctld,spool/d,log,run}
  host=$(hostname)
  cpus=$(nproc)

  # munge: a key of our own (in a directory only munge reads), its daemon as the munge user on
  # our own socket (in a directory everyone may enter).
  chown munge:munge "$state/key" "$state/munge"
  chmod 700 "$state/key"
  chmod 755 "$state" "$state/munge"
  if [ ! -f "$state/key/munge.key" ]; then
    mungekey -c -f -k "$state/key/munge.key"
    chown munge:munge "$state/key/munge.key"
    chmod 600 "$state/key/munge.key"
  fi
  runuser -u munge -- munged --key-file="$state/key/munge.key" \
    --socket="$state/munge/munge.socket" --pid-file="$state/munge/munged.pid" \
    --seed-file="$state/munge/munged.seed" --log-file="$state/munge/munged.log"

  cat >"$state/slurm.conf" <<CONF
ClusterName=queens
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$state/munge/munge.socket
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
StateSaveLocation=$state/spool/ctld
SlurmdSpoolDir=$state/spool/d
SlurmctldPidFile=$state/run/slurmctld.pid
SlurmdPidFile=$state/run/slurmd.pid
SlurmctldLogFile=$state/log/slurmctld.log
SlurmdLogFile=$state/log/slurmd.log
NodeName=$host CPUs=$cpus Sockets=1 CoresPerSocket=$cpus ThreadsPerCore=1 RealMemory=2000 State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF="$state/slurm.conf"
  setsid slurmctld -D -c -f "$SLURM_CONF" >"$state/log/slurmctld.out" 2>&1 < /dev/null &
  echo $! >"$state/run/slurmctld.daemon"
  setsid slurmd -D -f "$SLURM_CONF" >"$state/log/slurmd.out" 2>&1 < /dev/null &
  echo $! >"$state/run/slurmd.daemon"

  # The node reports idle within a second or two.
  for _ in $(seq 1 60); do
    if [ "$(sinfo -h -o %T 2>/dev/null | head -n1)" = "idle" ]; then
      echo "export SLURM_CONF=$SLURM_CONF"
      return 0
    fi
    sleep 0.5
  done
  echo "error: the node did not come up; see $state/log" >&2
  stop
  exit 1
}

stop() {
  for daemon in slurmd slurmctld; do
    if [ -f "$state/run/$daemon.daemon" ]; then
      kill "$(cat "$state/run/$daemon.daemon")" 2>/dev/null || true
      rm -f "$state/run/$daemon.daemon"
    fi
  done
  if [ -f "$state/munge/munged.pid" ]; then
    kill "$(cat "$state/munge/munged.pid")" 2>/dev/null || true
  fi
}

case "$command" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: $0 start|stop [STATE_DIR]" >&2; exit 2 ;;
esac
