#!/bin/sh
# `litmusc hunt`: configurations a second against cc-check's one compiler
# call per test (--batch 1), batches of 16, 64 and 200 tests per unit, and
# two shards at once on the same database; tests tried per bug found, per
# compiler and level (the planted broken compiler, gcc, clang), each a hunt
# of the same budget, drawn and (the broken compiler) enumerated; and how
# much of the vocabulary a long hunt draws.  Each row says the machine's
# load average when it ended, and the throughput rows the CPU time of
# litmusc and its compilers together (GNU time), which the load does not
# change: configurations per CPU second is what one idle core would do.
# Prints Markdown for bench/RESULTS.md.
#   HUNT_TESTS   tests of the throughput runs (default 200; --batch 1 a quarter of them)
#   HUNT_BUDGET  budget of each per-level hunt (default 20s)
#   HUNT_LONG    budget of the coverage hunt (default 10m)
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
bench_tmp cache
broken="$here/../tests/hunt/broken-cc"
N=${HUNT_TESTS:-200}
B=${HUNT_BUDGET:-20s}
LONG=${HUNT_LONG:-10m}

# field NAME FILE: a number from report.json
field() { grep -o "\"$1\":[0-9][0-9.]*" "$2" | head -1 | cut -d: -f2; }
# load: the load averages (1, 5, 15 minutes) now
load() { uptime | sed 's/.*load average: //'; }
# cpu FILE: user + system seconds GNU time wrote to FILE ("%U %S")
cpu() { tail -1 "$1" | awk '{ printf "%.2f", $1 + $2 }'; }
gtime=/usr/bin/time
[ -x "$gtime" ] || gtime=""

echo "### Throughput: gcc -O2 and clang -O2, the first $N tests of seed 1"
echo
echo "(configurations/s over the whole command; the search's own rate leaves out start-up: the"
echo "compilers' --version, the models, the database)"
echo
table_head "way" "configurations" "compiler calls" "wall" "configurations/s" "search's rate" "CPU s" \
    "configurations per CPU s" "load at the end"
for b in 1 16 64 200; do
    d="$tmp/b$b"
    n=$N
    [ "$b" = 1 ] && n=$((N / 4))
    start=$(date +%s.%N)
    if [ -n "$gtime" ]; then
        "$gtime" -f "%U %S" -o "$d.time" "$LITMUSC" hunt --cc gcc --cc clang --cflags -O2 --max-tests "$n" \
            --batch "$b" --max-bugs 0 -o "$d" >"$d.out" 2>&1
    else
        "$LITMUSC" hunt --cc gcc --cc clang --cflags -O2 --max-tests "$n" --batch "$b" --max-bugs 0 -o "$d" \
            >"$d.out" 2>&1
        echo "0 0" >"$d.time"
    fi
    end=$(date +%s.%N)
    way="--batch $b"
    [ "$b" = 1 ] && way="--batch 1 (cc-check's way: one call a test)"
    c=$(field configurations "$d/report.json")
    printf '| %s | %s | %s | %.1f s | %.1f | %.1f | %s | %.1f | %s |\n' "$way" "$c" \
        "$(field compiler_calls "$d/report.json")" "$(echo "$end - $start" | bc)" \
        "$(echo "$c / ($end - $start)" | bc -l)" "$(field rate "$d/report.json")" "$(cpu "$d.time")" \
        "$(echo "$c / ($(cpu "$d.time") + 0.0001)" | bc -l)" "$(load)"
done
d="$tmp/shards"
start=$(date +%s.%N)
for s in 1 2; do
    "$LITMUSC" hunt --cc gcc --cc clang --cflags -O2 --max-tests "$N" --batch 64 --max-bugs 0 --shard "$s/2" \
        -o "$d" >"$d.$s.out" 2>&1 &
done
wait
end=$(date +%s.%N)
total=$(sqlite3 "$d/hunt.db" "SELECT count(*) FROM hunt_runs" 2>/dev/null || echo "?")
printf '| --batch 64, two shards at once (one database) | %s | - | %.1f s | %.1f | - | - | - | %s |\n' "$total" \
    "$(echo "$end - $start" | bc)" "$(echo "$total / ($end - $start)" | bc -l)" "$(load)"
echo

echo "### Tests tried per bug found, a hunt of $B each (seed 1)"
echo
table_head "compiler" "level" "order" "tests" "configurations" "lifted" "showed a forbidden state" \
    "tests per bug" "load at the end"
for cc in "$broken" gcc clang; do
    for lv in -O0 -O1 -O2 -O3; do
        for order in random enum; do
            # the enumeration only where a bug is to be found in a short hunt
            [ "$order" = enum ] && [ "$cc" != "$broken" ] && continue
            d="$tmp/l$(basename "$cc")$lv$order"
            "$LITMUSC" hunt --cc "$cc" --cflags "$lv" --order "$order" --budget "$B" --max-bugs 0 -o "$d" \
                >"$d.out" 2>&1
            t=$(field tests "$d/report.json")
            r=$(field raw_bugs "$d/report.json")
            per="none found"
            [ "${r:-0}" -gt 0 ] && per=$(echo "scale=1; $t / $r" | bc)
            printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$(basename "$cc")" "$lv" "$order" "$t" \
                "$(field configurations "$d/report.json")" "$(field lifted "$d/report.json")" "$r" "$per" "$(load)"
        done
    done
done
echo

echo "### Vocabulary drawn by a hunt of $LONG (gcc -O2, seed 1)"
echo
d="$tmp/long"
"$LITMUSC" hunt --cc gcc --cflags -O2 --budget "$LONG" --max-bugs 0 -o "$d" >"$d.out" 2>&1
table_head "tests" "configurations" "search s" "edges in the vocabulary" "edges drawn" "load at the end"
printf '| %s | %s | %s | %s | %s | %s |\n' "$(field tests "$d/report.json")" "$(field configurations "$d/report.json")" \
    "$(field search_seconds "$d/report.json")" "$(field edges "$d/report.json")" \
    "$(field drawn_this_run "$d/report.json")" "$(load)"
