#!/bin/sh
# check: long
# litmusc campaign parallel, for real on GNU parallel: four shards, two at
# a time, merged into one database that holds exactly the runs of the same
# campaign run unsharded, each once.  Also the Slurm job script: its shard
# commands must be the ones parallel runs (checked by running the array
# task's command by hand for one shard).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../corpora.sh"
L=${LITMUSC:?LITMUSC must name the program under test}
command -v parallel >/dev/null 2>&1 || { echo "SKIP: no GNU parallel (apt-get install parallel)"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3 to read the databases with"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
export LITMUSC_CACHE="$tmp/cache"
. "$(cd "$(dirname "$0")/.." && pwd)/seed_cache.sh"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
own="$corpora_root/tests/corpus"
files="$own/x86/classic $own/c11/classic"
keys() { python3 -c "import sqlite3,sys; print('\n'.join(sorted(r[0] for r in sqlite3.connect(sys.argv[1]).execute('select key from runs where status = \"done\"'))))" "$1"; }

# shellcheck disable=SC2086
"$L" campaign parallel --db "$tmp/p.db" --jobs 2 --shards 4 -s 300 -r 1 $files > "$tmp/p.out" 2> "$tmp/p.err"
st=$?
[ "$st" -eq 0 ] || fail "campaign parallel: exit $st: $(tail -5 "$tmp/p.err")"
grep -q "4 shards on GNU parallel (2 at once)" "$tmp/p.err" || fail "no summary: $(cat "$tmp/p.err")"
for i in 1 2 3 4; do
    [ -f "$tmp/p.db.shard-$i-of-4" ] || fail "no shard database $i"
done
# shellcheck disable=SC2086
"$L" campaign run --db "$tmp/one.db" --quiet -s 300 -r 1 $files > /dev/null 2>&1 || fail "unsharded campaign"
keys "$tmp/p.db" > "$tmp/p.keys"
keys "$tmp/one.db" > "$tmp/one.keys"
[ "$(wc -l < "$tmp/p.keys")" -gt 30 ] || fail "only $(wc -l < "$tmp/p.keys") runs merged"
cmp -s "$tmp/p.keys" "$tmp/one.keys" || fail "parallel's merged runs differ from the unsharded campaign's"
# again: nothing left to run, nothing added twice
# shellcheck disable=SC2086
"$L" campaign parallel --db "$tmp/p.db" --jobs 2 --shards 4 -s 300 -r 1 $files > /dev/null 2> "$tmp/p2.err" ||
    fail "second parallel campaign: $(tail -3 "$tmp/p2.err")"
grep -q ": 0 runs merged" "$tmp/p2.err" || fail "the second parallel campaign merged runs again: $(cat "$tmp/p2.err")"
keys "$tmp/p.db" | cmp -s - "$tmp/p.keys" || fail "the second parallel campaign changed the runs"

# Slurm: the script runs the same shard commands
# shellcheck disable=SC2086
"$L" campaign slurm --db "$tmp/s.db" --shards 3 -o "$tmp/job.sh" -s 300 -r 1 $files 2> "$tmp/s.err" || fail "campaign slurm"
grep -q '^#SBATCH --array=1-3$' "$tmp/job.sh" || fail "no array of 3 tasks"
grep -q 'dependency=afterany:' "$tmp/job.sh" || fail "no merge job after the array"
sh -n "$tmp/job.sh" || fail "the job script is not valid sh"
cmd=$(sed -n 's/^exec \(.* campaign run .*\)$/\1/p' "$tmp/job.sh")
[ -n "$cmd" ] || fail "no shard command in the job script"
SLURM_ARRAY_TASK_ID=2 sh -c "$cmd" > /dev/null 2>&1 || fail "the array task's command failed"
[ -f "$tmp/s.db.shard-2-of-3" ] || fail "the array task wrote no shard database"

[ "$fails" -eq 0 ] || { echo "campaign_parallel: $fails failure(s)"; exit 1; }
echo "campaign_parallel: 4 shards on GNU parallel, $(wc -l < "$tmp/p.keys") runs merged, equal to the unsharded campaign; Slurm script checked"
