#!/bin/sh
# check: long
# litmusc campaign on the command line:
#  1. a campaign killed with kill -9 in the middle resumes with the same
#     command, and every run is there exactly once, its histogram adding
#     up to its iterations;
#  2. two shards merged hold the same runs as the campaign unsharded, and
#     merging a shard twice adds nothing;
#  3. several targets and compilers; the reports (JSON valid against the
#     schema, JUnit, HTML) and diff of two campaigns;
#  4. a wrong, foreign or corrupted database: exit 2, the file untouched;
#     two processes on one database.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../corpora.sh"
L=${LITMUSC:?LITMUSC must name the program under test}
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3 to read the databases with"; exit 77; }
tmp=$(mktemp -d)
trap 'kill -9 $bg 2>/dev/null; rm -rf "$tmp"' EXIT INT TERM
bg=
export LITMUSC_CACHE="$tmp/cache"
. "$(cd "$(dirname "$0")/.." && pwd)/seed_cache.sh"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
own="$corpora_root/tests/corpus"
# The campaigns below run a sample of the classic folders (every fourth x86
# test, every third C one) in `make check`, and the folders whole under
# CORPUS_ALL=1: what they check (a kill mid-run, shards, two processes) does
# not grow with the number of tests, and every run builds a harness.
sample_dir() {
    mkdir -p "$2"
    ls "$1"/*.litmus | awk -v s="$3" '(NR - 1) % s == 0' | while read -r f; do cp "$f" "$2/"; done
}
if [ -n "${CORPUS_ALL:-}" ]; then
    x86="$own/x86/classic" c11="$own/c11/classic"
else
    x86="$tmp/x86" c11="$tmp/c11"
    sample_dir "$own/x86/classic" "$x86" 4
    sample_dir "$own/c11/classic" "$c11" 3
fi

# check DB N: N runs, all done, once each, histograms adding up
check_db() {
    python3 - "$1" "$2" <<'PY'
import sqlite3, sys
db, want = sys.argv[1], int(sys.argv[2])
c = sqlite3.connect(db)
rows = c.execute("select id, key, status, iterations from runs").fetchall()
bad = []
if len(rows) != want: bad.append("%d runs, expected %d" % (len(rows), want))
if len(set(r[1] for r in rows)) != len(rows): bad.append("a run key twice")
for rid, key, status, it in rows:
    if status != "done": bad.append("run %d is %s" % (rid, status)); continue
    total, = c.execute("select coalesce(sum(count), 0) from states where run_id = ?", (rid,)).fetchone()
    if total != it: bad.append("run %d: states add up to %d, iterations %d" % (rid, total, it))
if bad: print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
}

# 1. kill -9 in the middle, then resume.
n_x86=$(ls "$x86"/*.litmus | wc -l)
"$L" campaign run --db "$tmp/k.db" --quiet -s 20000 -r 20 "$x86" > "$tmp/k1.out" 2> "$tmp/k1.err" &
bg=$!
# wait for a few finished runs, then kill it hard mid-run
i=0
while [ $i -lt 600 ]; do
    n=$(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(\"select count(*) from runs where status='done'\").fetchone()[0])" "$tmp/k.db" 2>/dev/null || echo 0)
    [ "${n:-0}" -ge 3 ] && break
    sleep 0.1
    i=$((i + 1))
done
kill -9 "$bg" 2>/dev/null
wait "$bg" 2>/dev/null
bg=
done1=$(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(\"select count(*) from runs where status='done'\").fetchone()[0])" "$tmp/k.db")
[ "$done1" -ge 3 ] && [ "$done1" -lt "$n_x86" ] || fail "kill -9 came at $done1 of $n_x86 finished runs (want some, not all)"
"$L" campaign run --db "$tmp/k.db" --quiet -s 20000 -r 20 "$x86" > /dev/null 2> "$tmp/k2.err"
st=$?
[ "$st" -eq 0 ] || fail "resumed campaign: exit $st: $(cat "$tmp/k2.err")"
check_db "$tmp/k.db" "$n_x86" || fail "after kill -9 and resume"
# a third time does nothing, and says so
"$L" campaign run --db "$tmp/k.db" -s 20000 -r 20 "$x86" > /dev/null 2> "$tmp/k3.err"
grep -q "0 runs this time" "$tmp/k3.err" || fail "a finished campaign ran again: $(cat "$tmp/k3.err")"

# 2. shards.
"$L" campaign run --db "$tmp/all.db" --quiet -s 200 -r 1 "$x86" "$c11" > /dev/null 2>&1 || fail "unsharded campaign"
"$L" campaign run --db "$tmp/s1.db" --quiet --shard 1/2 -s 200 -r 1 "$x86" "$c11" > /dev/null 2>&1 || fail "shard 1/2"
"$L" campaign run --db "$tmp/s2.db" --quiet --shard 2/2 -s 200 -r 1 "$x86" "$c11" > /dev/null 2>&1 || fail "shard 2/2"
"$L" campaign merge "$tmp/merged.db" "$tmp/s1.db" "$tmp/s2.db" > "$tmp/m.out" || fail "merge"
"$L" campaign merge "$tmp/merged.db" "$tmp/s2.db" > "$tmp/m2.out" || fail "merge again"
grep -q "0 runs added" "$tmp/m2.out" || fail "merging a shard twice added runs: $(cat "$tmp/m2.out")"
keys() { python3 -c "import sqlite3,sys; print('\n'.join(sorted(r[0] for r in sqlite3.connect(sys.argv[1]).execute('select key from runs'))))" "$1"; }
keys "$tmp/all.db" > "$tmp/all.keys"
keys "$tmp/merged.db" > "$tmp/merged.keys"
keys "$tmp/s1.db" > "$tmp/s1.keys"
[ -s "$tmp/s1.keys" ] && [ "$(wc -l < "$tmp/s1.keys")" -lt "$(wc -l < "$tmp/all.keys")" ] || fail "shard 1/2 is not a part"
cmp -s "$tmp/all.keys" "$tmp/merged.keys" || fail "the merged shards' runs differ from the unsharded campaign's"
check_db "$tmp/merged.db" "$(wc -l < "$tmp/all.keys")" || fail "merged shards"

# 3. targets, compilers, reports, diff.
"$L" campaign run --db "$tmp/t.db" --quiet --targets x86,c11 --cc gcc --cc 'clang -O1' -s 300 -r 1 \
    "$corpus_sb" "$own/c11/classic/SB.litmus" > /dev/null 2>&1 || fail "targets x compilers"
check_db "$tmp/t.db" 8 || fail "2 tests x 2 targets x 2 compilers"
"$L" campaign report --db "$tmp/t.db" --json > "$tmp/t.json" || fail "report --json"
# a c11 run on x86 counts the states the x86 compilation shows, as run
# does: MP+rlx's 3 of rc11's 4 (the racy SB above has no such set)
case $(uname -m) in
x86_64|i?86)
    "$L" campaign run --db "$tmp/mp.db" --quiet --targets c11 -s 300 -r 1 "$corpora_root/examples/c/MP+rlx.litmus" \
        > /dev/null 2>&1 || fail "campaign MP+rlx"
    "$L" campaign report --db "$tmp/mp.db" --json > "$tmp/mp.json" || fail "report --json MP+rlx"
    grep -q '"allowed": *4, *"seen": *[0-9]*, *"first": *\[[^]]*\], *"x86_reachable": *3, *"x86_seen": *[0-3]' "$tmp/mp.json" ||
        fail "campaign JSON of MP+rlx: $(grep -o '"coverage": *{[^}]*}' "$tmp/mp.json")" ;;
esac
py=""
for p in /usr/bin/python3 python3; do "$p" -c 'import jsonschema' 2>/dev/null && { py=$p; break; }; done
if [ -n "$py" ]; then
    "$py" -c 'import json,sys,jsonschema; jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))); d=json.load(open(sys.argv[1])); assert d["command"]=="campaign" and len(d["results"])==8, d' \
        "$tmp/t.json" "$corpora_root/harness/litmusc.schema.json" || fail "campaign JSON does not follow the schema"
else
    echo "SKIP: no python3 jsonschema: the campaign JSON was not validated"
fi
"$L" campaign report --db "$tmp/t.db" --junit "$tmp/t.xml" --html "$tmp/t.html" > "$tmp/t.txt" || fail "report --junit --html"
[ "$(grep -c '<testcase' "$tmp/t.xml")" -eq 8 ] || fail "JUnit: not 8 testcases"
grep -q '<svg class="histogram"' "$tmp/t.html" || fail "HTML: no histogram"
grep -q 'http' "$tmp/t.html" && grep -v 'xmlns="http://www.w3.org/2000/svg"' "$tmp/t.html" | grep -q 'src="http\|href="http' && fail "HTML refers to the network"
grep -q "2 tests, 8 runs: 8 finished" "$tmp/t.txt" || fail "report summary: $(cat "$tmp/t.txt")"
# diff: the same campaign against itself is empty; against another compiler's, rates differ or not, but
# a campaign without the C test shows it
"$L" campaign diff "$tmp/t.db" "$tmp/t.db" > "$tmp/d0" || fail "diff of a campaign with itself: $(cat "$tmp/d0")"
grep -q "0 changes" "$tmp/d0" || fail "diff with itself"
"$L" campaign run --db "$tmp/u.db" --quiet --targets x86 -s 300 -r 1 "$corpus_sb" > /dev/null 2>&1
"$L" campaign diff "$tmp/t.db" "$tmp/u.db" > "$tmp/d1"
[ $? -eq 1 ] || fail "diff of different campaigns is not exit 1"
grep -q "only in A: SB on c11" "$tmp/d1" || fail "diff does not see the missing runs: $(cat "$tmp/d1")"
# a forbidden state shows in run's status, the report and the diff
"$L" campaign run --db "$tmp/f.db" --quiet --model sc -s 2000 -r 5 "$corpus_sb" > /dev/null 2>&1
[ $? -eq 1 ] || fail "a campaign under sc on SB does not exit 1"
"$L" campaign report --db "$tmp/f.db" > /dev/null
[ $? -eq 1 ] || fail "the report of a campaign with a forbidden state does not exit 1"

# progress: a live line on a terminal, nothing otherwise
"$L" campaign run --db "$tmp/p.db" -s 200 -r 1 "$corpus_sb" "$corpus_mp" > /dev/null 2> "$tmp/p.err"
grep -q "$(printf '\r')" "$tmp/p.err" && fail "a progress line although stderr is not a terminal"
if command -v script > /dev/null 2>&1; then
    script -qec "'$L' campaign run --db '$tmp/p2.db' -s 200 -r 1 '$corpus_sb' '$corpus_mp'" /dev/null > "$tmp/tty.out" 2>&1
    grep -q "campaign: [0-9]*/2 runs .*runs/s  ETA .*forbidden" "$tmp/tty.out" || fail "no live progress line on a terminal: $(cat "$tmp/tty.out")"
    script -qec "'$L' campaign run --quiet --db '$tmp/p3.db' -s 200 -r 1 '$corpus_sb'" /dev/null > "$tmp/tty.out" 2>&1
    [ -s "$tmp/tty.out" ] && fail "--quiet still printed: $(cat "$tmp/tty.out")"
else
    echo "SKIP: no script(1) to give the campaign a terminal: the live progress line was not checked"
fi

# 4. bad databases.
printf 'this is not a database\n' > "$tmp/text.db"
cp "$tmp/text.db" "$tmp/text.orig"
python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('create table t (x)'); c.commit()" "$tmp/other.db"
cp "$tmp/other.db" "$tmp/other.orig"
cp "$tmp/t.db" "$tmp/corrupt.db"
python3 - "$tmp/corrupt.db" <<'PY'
import sys
f = open(sys.argv[1], "r+b"); f.seek(4096 + 10); f.write(b"\xde\xad\xbe\xef" * 64); f.close()
PY
cp "$tmp/corrupt.db" "$tmp/corrupt.orig"
for f in text other corrupt; do
    "$L" campaign run --db "$tmp/$f.db" --quiet -s 100 -r 1 "$corpus_sb" > /dev/null 2> "$tmp/bad.err"
    st=$?
    [ "$st" -eq 2 ] || fail "$f.db: exit $st, expected 2: $(cat "$tmp/bad.err")"
    grep -q "$f.db: error: " "$tmp/bad.err" || fail "$f.db: no clear message: $(cat "$tmp/bad.err")"
    cmp -s "$tmp/$f.db" "$tmp/$f.orig" || fail "$f.db was changed"
    "$L" campaign report --db "$tmp/$f.db" > /dev/null 2>&1
    [ $? -eq 2 ] || fail "report on $f.db: not exit 2"
done
"$L" campaign report --db "$tmp/none.db" > /dev/null 2> "$tmp/bad.err"
[ $? -eq 2 ] && [ ! -e "$tmp/none.db" ] || fail "report on a missing database: exit or file"
"$L" campaign run --db "$tmp/x.db" --shard 3/2 "$corpus_sb" > /dev/null 2>&1
[ $? -eq 2 ] || fail "--shard 3/2 is not a usage error"
"$L" campaign run --db "$tmp/x.db" --targets arm "$corpus_sb" > /dev/null 2>&1
[ $? -eq 2 ] || fail "--targets arm is not a usage error"
# two processes on one database: both finish, every run once
"$L" campaign run --db "$tmp/two.db" --quiet -s 2000 -r 2 "$x86" > /dev/null 2>&1 &
p1=$!
"$L" campaign run --db "$tmp/two.db" --quiet -s 2000 -r 2 "$x86" > /dev/null 2>&1
s2=$?
wait $p1
s1=$?
[ "$s1" -eq 0 ] && [ "$s2" -eq 0 ] || fail "two processes on one database: exit $s1 and $s2"
check_db "$tmp/two.db" "$n_x86" || fail "two processes on one database"

# a done run whose stored result was damaged is reported as corrupt, not as not run
cp "$tmp/u.db" "$tmp/corrupt.db"
python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(\"update runs set result='{broken' where status='done'\"); c.commit()" "$tmp/corrupt.db"
"$L" campaign report --db "$tmp/corrupt.db" --json > "$tmp/corrupt.json" || fail "report --json of a damaged result: exit $?"
grep -q '"error":"corrupt: the stored result does not parse"' "$tmp/corrupt.json" || fail "damaged result not reported as corrupt: $(head -c 300 "$tmp/corrupt.json")"
grep -q 'not run yet' "$tmp/corrupt.json" && fail "damaged result reported as not run yet"
"$L" campaign report --db "$tmp/corrupt.db" --junit "$tmp/corrupt.xml" > /dev/null || fail "report --junit of a damaged result"
grep -q 'corrupt: the stored result does not parse' "$tmp/corrupt.xml" || fail "junit: damaged result not reported as corrupt"
# the text summary and the HTML report count it as corrupt: neither finished nor not run
counts=$(python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); print(*c.execute(\"select sum(status='done'), sum(status not in ('done','error')) from runs\").fetchone())" "$tmp/corrupt.db")
ndamaged=${counts% *}
npending=${counts#* }
[ "$ndamaged" -gt 0 ] || fail "no finished run to damage"
"$L" campaign report --db "$tmp/corrupt.db" > "$tmp/corrupt.txt" || fail "report of a damaged result: exit $?"
grep -q "runs: 0 finished, [0-9]* failed, $ndamaged corrupt (the stored result does not parse), $npending not run;" \
    "$tmp/corrupt.txt" || fail "text summary: damaged results not counted as corrupt: $(head -1 "$tmp/corrupt.txt")"
"$L" campaign report --db "$tmp/corrupt.db" --html "$tmp/corrupt.html" > /dev/null || fail "report --html of a damaged result"
grep -q "id=\"sum-corrupt\">$ndamaged<" "$tmp/corrupt.html" && grep -q "id=\"sum-pending\">$npending<" "$tmp/corrupt.html" &&
    grep -q 'id="sum-done">0<' "$tmp/corrupt.html" || fail "html summary: damaged results not counted as corrupt"
[ "$(grep -c '<tr class="corrupt">' "$tmp/corrupt.html")" = "$ndamaged" ] || fail "html: damaged runs not marked corrupt"
grep -q '; corrupt: the stored result does not parse' "$tmp/corrupt.html" || fail "html: a damaged run's details"

[ "$fails" -eq 0 ] || { echo "campaign_cli: $fails failure(s)"; exit 1; }
echo "campaign_cli: kill -9 at $done1 of $n_x86 runs and resumed; shards merged; targets x compilers; reports; diff; bad databases refused"
