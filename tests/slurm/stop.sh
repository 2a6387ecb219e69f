#!/bin/sh
# Stop the single-node Slurm that tests/slurm/start.sh DIR started (munge,
# which other programs may use, stays).
set -u
dir=${1:?usage: stop.sh DIR}
for p in slurmd slurmctld; do
    [ -f "$dir/$p.pid" ] && kill "$(cat "$dir/$p.pid")" 2> /dev/null
done
sleep 1
exit 0
