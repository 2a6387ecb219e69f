#!/bin/sh
# Campaign costs (not a test: it prints figures).
#
#   LITMUSC=bin/litmusc sh bench/campaign_bench.sh [S]
#
# 1. overhead: the same runs (tests/corpus/x86 and c11 classic, -s S -r 4,
#    the build cache warm) by `litmusc run` and by `litmusc campaign run`:
#    wall times, and litmusc's own CPU time (perf, children not counted),
#    whose difference is the campaign's cost, against the runs' time;
# 2. a resumed campaign that has nothing left to do;
# 3. reports of 1000 runs (a real campaign's rows copied under new names
#    with python's sqlite3 until there are 1000): HTML, JUnit, JSON.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
L=$LITMUSC
S=${1:-20000}
corpus="$here/../tests/corpus"
bench_tmp cache
files="$corpus/x86/classic $corpus/c11/classic"
now() { date +%s.%N; }
ms() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", (b - a) * 1000 }'; }
list=$(find $files -name '*.litmus' | sort)
n=$(echo "$list" | wc -l)

# warm the build cache, so both sides only run
# shellcheck disable=SC2086
"$L" run -s 10 -r 1 $list > /dev/null 2>&1
# the stress runs' wall time varies by tens of percent from one round to
# the next, more than the campaign costs; what the campaign adds is the
# CPU time of litmusc itself (children not counted), measured with perf
cpu_ms() {  # command... -> milliseconds of CPU of the process itself
    perf stat --no-inherit -x, -e task-clock "$@" 2>&1 > /dev/null | awk -F, '/task-clock/ { printf "%.0f", $1 }'
}
best_run="" best_camp=""
for round in 1 2 3; do
    t0=$(now)
    # shellcheck disable=SC2086
    "$L" run -s "$S" -r 4 $list > /dev/null 2>&1
    t1=$(now)
    rm -f "$tmp/c.db"*
    # shellcheck disable=SC2086
    "$L" campaign run --db "$tmp/c.db" --quiet -s "$S" -r 4 $files > /dev/null 2>&1
    t2=$(now)
    r=$(ms "$t0" "$t1")
    c=$(ms "$t1" "$t2")
    [ -z "$best_run" ] || [ "$r" -lt "$best_run" ] && best_run=$r
    [ -z "$best_camp" ] || [ "$c" -lt "$best_camp" ] && best_camp=$c
done
echo "wall (best of 3): $n tests, -s $S -r 4: run ${best_run} ms, campaign run ${best_camp} ms"
if command -v perf > /dev/null 2>&1 && perf stat -e task-clock true > /dev/null 2>&1; then
    # shellcheck disable=SC2086
    cr=$(cpu_ms "$L" run -s "$S" -r 4 $list)
    rm -f "$tmp/cpu.db"*
    # shellcheck disable=SC2086
    cc=$(cpu_ms "$L" campaign run --db "$tmp/cpu.db" --quiet -s "$S" -r 4 $files)
    echo "litmusc's own CPU: run ${cr} ms, campaign run ${cc} ms: the campaign adds $((cc - cr)) ms," \
         "$(awk -v a="$cr" -v b="$cc" -v w="$best_run" 'BEGIN { printf "%.1f%%", 100 * (b - a) / w }') of the runs' time"
else
    echo "litmusc's own CPU: no perf here (skipped)"
fi

t3=$(now)
# shellcheck disable=SC2086
"$L" campaign run --db "$tmp/c.db" --quiet -s "$S" -r 4 $files > /dev/null 2> "$tmp/resume.err"
t4=$(now)
echo "resume of the finished campaign: $(ms "$t3" "$t4") ms for $n runs, $(grep -c . "$tmp/resume.err") lines said"

if command -v python3 > /dev/null 2>&1; then
    cp "$tmp/c.db" "$tmp/big.db"
    python3 - "$tmp/big.db" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
base = c.execute("select count(*) from runs").fetchone()[0]
k = 0
while c.execute("select count(*) from runs").fetchone()[0] < 1000:
    k += 1
    for (tid,) in c.execute("select id from tests where name not like '%~%'").fetchall():
        c.execute("insert into tests (name, hash, arch, path, source) select name || '~' || ?, hash, arch, path, source "
                  "from tests where id = ?", (k, tid))
        nt = c.execute("select last_insert_rowid()").fetchone()[0]
        c.execute("insert into model_states select ?, model, state, condition from model_states where test_id = ?", (nt, tid))
        for (rid,) in c.execute("select id from runs where test_id = ?", (tid,)).fetchall():
            c.execute("insert into runs (key, test_id, config_id, status, worker_id, machine_id, started, finished, verdict,"
                      " model_name, observation, iterations, seconds, build_seconds, positive, negative, allowed_states,"
                      " seen_allowed, forbidden_states, forbidden_count, message, result) select key || '~' || ?, ?,"
                      " config_id, status, worker_id, machine_id, started, finished, verdict, model_name, observation,"
                      " iterations, seconds, build_seconds, positive, negative, allowed_states, seen_allowed,"
                      " forbidden_states, forbidden_count, message, result from runs where id = ?", (k, nt, rid))
            nr = c.execute("select last_insert_rowid()").fetchone()[0]
            c.execute("insert into states select ?, state, count, allowed, condition from states where run_id = ?", (nr, rid))
c.execute("delete from runs where id in (select id from runs order by id desc limit (select count(*) - 1000 from runs))")
c.commit()
PY
    runs=$(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('select count(*) from runs').fetchone()[0])" "$tmp/big.db")
    for kind in html junit json; do
        t5=$(now)
        case $kind in
        html) "$L" campaign report --db "$tmp/big.db" --html "$tmp/r.html" > /dev/null ;;
        junit) "$L" campaign report --db "$tmp/big.db" --junit "$tmp/r.xml" > /dev/null ;;
        json) "$L" campaign report --db "$tmp/big.db" --json > "$tmp/r.json" ;;
        esac
        t6=$(now)
        size=$(wc -c < "$tmp/r.$([ $kind = junit ] && echo xml || echo $kind)")
        echo "report --$kind of $runs runs: $(ms "$t5" "$t6") ms, $size bytes"
    done
else
    echo "report: no python3 to grow the database with (skipped)"
fi
