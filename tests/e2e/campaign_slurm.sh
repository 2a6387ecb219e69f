#!/bin/sh
# litmusc campaign slurm for real: a single-node Slurm on this machine
# (tests/slurm/start.sh, when none is reachable and we are root), three
# shards as a job array and the merge job after them; the merged database
# must hold the runs of the same campaign run unsharded, each once.
# `make slurm-check` installs Debian's slurm-wlm and munge and runs this.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../corpora.sh"
L=${LITMUSC:?LITMUSC must name the program under test}
command -v sbatch >/dev/null 2>&1 && command -v slurmctld >/dev/null 2>&1 ||
    { echo "SKIP: Slurm is not installed (make slurm-check installs slurm-wlm and munge and runs this test)"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3 to read the databases with"; exit 77; }
tmp=$(mktemp -d)
started=""
cleanup() {
    [ -n "$started" ] && sh "$here/../slurm/stop.sh" "$tmp/slurm"
    rm -rf "$tmp"
}
trap cleanup EXIT INT TERM
if ! sinfo -h > /dev/null 2>&1; then
    [ "$(id -u)" = 0 ] || { echo "SKIP: no Slurm controller reachable, and starting one needs root"; exit 77; }
    mkdir -p "$tmp/slurm"
    conf=$(sh "$here/../slurm/start.sh" "$tmp/slurm") || { echo "FAIL: could not start a local Slurm"; exit 1; }
    export "$conf"
    started=yes
fi
export LITMUSC_CACHE="$tmp/cache"
. "$(cd "$(dirname "$0")/.." && pwd)/seed_cache.sh"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
own="$corpora_root/tests/corpus"
files="$own/x86/classic"
keys() { python3 -c "import sqlite3,sys; print('\n'.join(sorted(r[0] for r in sqlite3.connect(sys.argv[1]).execute('select key from runs where status = \"done\"'))))" "$1"; }

# shellcheck disable=SC2086
"$L" campaign slurm --db "$tmp/s.db" --shards 3 -o "$tmp/job.sh" -s 500 -r 1 $files 2> "$tmp/s.err" || fail "campaign slurm: $(cat "$tmp/s.err")"
(cd "$tmp" && sh job.sh) > "$tmp/submit.out" 2>&1 || fail "submitting: $(cat "$tmp/submit.out")"
merge=$(sed -n 's/^submitted shards \([0-9]*\) and merge \([0-9]*\)$/\2/p' "$tmp/submit.out")
[ -n "$merge" ] || fail "no job ids: $(cat "$tmp/submit.out")"
i=0
while [ -n "$merge" ] && [ $i -lt 300 ] && squeue -h -j "$merge" 2> /dev/null | grep -q .; do
    sleep 1
    i=$((i + 1))
done
[ -f "$tmp/s.db" ] || fail "the merge job wrote no database: $(cat "$tmp"/s.db.merge.log 2>/dev/null)"
# shellcheck disable=SC2086
"$L" campaign run --db "$tmp/one.db" --quiet -s 500 -r 1 $files > /dev/null 2>&1 || fail "unsharded campaign"
keys "$tmp/s.db" > "$tmp/s.keys" 2> /dev/null
keys "$tmp/one.db" > "$tmp/one.keys"
[ -s "$tmp/s.keys" ] && cmp -s "$tmp/s.keys" "$tmp/one.keys" ||
    fail "the Slurm campaign's runs ($(wc -l < "$tmp/s.keys")) differ from the unsharded campaign's ($(wc -l < "$tmp/one.keys"))"
[ "$fails" -eq 0 ] || { cat "$tmp"/*.log 2> /dev/null | tail -20; echo "campaign_slurm: $fails failure(s)"; exit 1; }
echo "campaign_slurm: 3 shards as a Slurm job array and a merge job: $(wc -l < "$tmp/s.keys") runs, equal to the unsharded campaign"
cat "$tmp/submit.out"
