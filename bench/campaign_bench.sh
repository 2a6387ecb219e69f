#!/bin/sh
# Campaign costs (not a test: it prints figures).
#
#   LITMUSC=bin/litmusc sh bench/campaign_bench.sh [S]
#
# 1. overhead: the same runs (tests/corpus/x86 and c11 classic, -s S -r 4,
#    the build cache warm) by `litmusc run` and by `litmusc campaign run`;
#    the campaign's own cost is the difference, against the runs' time;
# 2. a resumed campaign that has nothing left to do;
# 3. reports of 1000 runs (a real campaign's rows copied under new names
#    with python's sqlite3 until there are 1000): HTML, JUnit, JSON.
set -u
here=$(cd "$(dirname "$0")" && pwd)
L=${LITMUSC:-$here/../bin/litmusc}
S=${1:-20000}
corpus="$here/../tests/corpus"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
export LITMUSC_CACHE="$tmp/cache"
files="$corpus/x86/classic $corpus/c11/classic"
now() { date +%s.%N; }
ms() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", (b - a) * 1000 }'; }
list=$(find $files -name '*.litmus' | sort)
n=$(echo "$list" | wc -l)

# warm the build cache, so both sides only run
# shellcheck disable=SC2086
"$L" run -s 10 -r 1 $list > /dev/null 2>&1
t0=$(now)
# shellcheck disable=SC2086
"$L" run -s "$S" -r 4 $list > /dev/null 2>&1
t1=$(now)
# shellcheck disable=SC2086
"$L" campaign run --db "$tmp/c.db" --quiet -s "$S" -r 4 $files > /dev/null 2>&1
t2=$(now)
run_ms=$(ms "$t0" "$t1")
camp_ms=$(ms "$t1" "$t2")
echo "overhead: $n tests, -s $S -r 4: run ${run_ms} ms, campaign run ${camp_ms} ms," \
     "campaign's own cost $(awk -v a="$run_ms" -v b="$camp_ms" 'BEGIN { printf "%.1f%%", 100 * (b - a) / a }')"

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
