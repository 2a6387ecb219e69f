#!/bin/sh
# Start a single-node Slurm on this machine for the campaign tests: munge,
# slurmctld and slurmd with their state, spool, logs and configuration in
# DIR (the one argument), on ports of their own.  Needs root and Debian's
# slurm-wlm and munge.  Prints the SLURM_CONF to export; tests/slurm/stop.sh
# DIR stops it.
set -eu
dir=${1:?usage: start.sh DIR}
mkdir -p "$dir/state" "$dir/spool"
host=$(hostname -s)
cpus=$(nproc)
cat > "$dir/slurm.conf" <<CONF
ClusterName=litmusc
SlurmctldHost=$host
SlurmUser=root
SlurmctldPort=16817
SlurmdPort=16818
AuthType=auth/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/pgid
TaskPlugin=task/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=litmusc Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
# munge: its key comes with the package; the socket folder may be missing
if ! pgrep -x munged > /dev/null 2>&1; then
    mkdir -p /run/munge /var/log/munge /var/lib/munge
    chown munge:munge /run/munge /var/log/munge /var/lib/munge 2>/dev/null || true
    [ -f /etc/munge/munge.key ] || /usr/sbin/mungekey --create > /dev/null 2>&1 || true
    chown munge:munge /etc/munge/munge.key 2>/dev/null || true
    if command -v runuser > /dev/null 2>&1; then
        runuser -u munge -- /usr/sbin/munged
    else
        /usr/sbin/munged --force
    fi
fi
export SLURM_CONF="$dir/slurm.conf"
/usr/sbin/slurmctld -f "$SLURM_CONF"
/usr/sbin/slurmd -f "$SLURM_CONF"
# wait for the node to be up
i=0
while [ $i -lt 60 ]; do
    if sinfo -h -o '%t' 2> /dev/null | grep -q 'idle'; then
        echo "SLURM_CONF=$SLURM_CONF"
        exit 0
    fi
    sleep 1
    i=$((i + 1))
done
echo "start.sh: the Slurm node did not come up; see $dir/slurmctld.log and $dir/slurmd.log" >&2
tail -5 "$dir/slurmctld.log" "$dir/slurmd.log" >&2 || true
exit 1
