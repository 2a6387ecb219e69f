#!/bin/sh
# Campaigns of cc-check runs (--targets cc-check): compiler x flag set as an
# axis.  Three small C tests and one that cannot lift (an address
# dependency), under gcc and clang (each skipped with its reason when
# missing) and a deliberately broken compiler (tests/cc/no-mfence-cc.sh,
# behind a path with HTML's special characters) at -O0 and -O2.  The
# report's counts per compiler and flags (text, --json, --junit, --html)
# match what `litmusc cc-check` says for the same configurations; the
# broken compiler shows as a bug on SB+poscscs with its state and on no
# other test; a refusal counts by reason and is a skipped JUnit testcase;
# a campaign killed with SIGKILL resumes to the same table, one
# interrupted (SIGINT) in a compile gives the run back; shards merge
# to it; diff names the bug between two compilers' campaigns; a damaged
# stored result counts as corrupt.
set -u
L=${LITMUSC:?LITMUSC must name the program under test}
here=$(cd "$(dirname "$0")" && pwd)
root="$here/../.."
c11="$root/tests/corpus/c11/classic"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LITMUSC_CACHE="$tmp/cache"
. "$(cd "$(dirname "$0")/.." && pwd)/seed_cache.sh"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

ccs=""
for cc in gcc clang; do
    if command -v $cc >/dev/null 2>&1; then ccs="$ccs $cc"; else echo "SKIP: no $cc: its configurations left out"; fi
done
[ -n "$ccs" ] || { echo "SKIP: neither gcc nor clang is installed"; exit 77; }
real=$(echo $ccs | cut -d' ' -f1)
# the broken compiler, at a path a report must escape
broken="$tmp/no-fence<&>\"'.sh"
printf '#!/bin/sh\nCC_REAL=%s exec "%s" "$@"\n' "$real" "$root/tests/cc/no-mfence-cc.sh" >"$broken"
chmod +x "$broken"
tests="$c11/SB+poscscs.litmus $c11/MP+porlxrel+poacqrlx.litmus $c11/LB+porlxrlxs.litmus"
tests="$tests $c11/MP+porlxrel+addrrlxrlx.litmus"
ntests=4
levels="-O0 -O2"
set --
for cc in $ccs; do set -- "$@" --cc "$cc"; done
set -- "$@" --cc "$broken" --cflags -O0 --cflags -O2

"$L" campaign run --db "$tmp/c.db" --quiet --targets cc-check "$@" $tests 2>"$tmp/err"
rc=$?
[ $rc = 1 ] || fail "campaign run with a broken compiler: exit $rc, not 1: $(cat "$tmp/err")"
"$L" campaign report --db "$tmp/c.db" --json >"$tmp/r.json" --html "$tmp/r.html" --junit "$tmp/r.xml"
rc=$?
[ $rc = 1 ] || fail "report of a campaign with a bug: exit $rc, not 1"
"$L" campaign report --db "$tmp/c.db" >"$tmp/r.txt"

# each configuration's line against cc-check's own verdicts
refusals=0
for cc in $ccs "$broken"; do
    for o in $levels; do
        "$L" cc-check --cc "$cc" --cflags "$o" $tests >"$tmp/direct" 2>"$tmp/direct.err"
        same=$(grep -c ": same (" "$tmp/direct"); stronger=$(grep -c ": stronger (" "$tmp/direct")
        bug=$(grep -c ": bug (" "$tmp/direct"); refused=$(grep -c ": refused$" "$tmp/direct")
        refusals=$((refusals + refused))
        [ $((same + stronger + bug + refused)) = $ntests ] ||
            fail "cc-check $cc $o: $((same + stronger + bug + refused)) verdicts for $ntests tests"
        line="cc-check $cc $o (rc11): $ntests tests, $ntests compiled, $((ntests - refused)) lifted: $same same, $stronger stronger, $bug bug, $refused refused"
        grep -qxF "$line" "$tmp/r.txt" || fail "report: no line '$line': $(grep -F "cc-check $cc $o " "$tmp/r.txt")"
    done
done
# the broken compiler: a bug on SB+poscscs with its state, on no other test;
# the real compilers none; the address dependency refused by reason
for o in $levels; do
    sed -n "/^cc-check .*no-fence.* $o (/,/^cc-check /p" "$tmp/r.txt" >"$tmp/broken.txt"
    grep -qx "  bug SB+poscscs: P0_r0=0; P1_r0=0;" "$tmp/broken.txt" ||
        fail "broken $o: the bug is not listed with its state: $(cat "$tmp/broken.txt")"
    [ "$(grep -c '^  bug ' "$tmp/broken.txt")" = 1 ] || fail "broken $o: bugs on other tests: $(cat "$tmp/broken.txt")"
done
for cc in $ccs; do
    grep "^cc-check $cc " "$tmp/r.txt" | grep -v " 0 bug, " && fail "$cc: a bug reported for a real compiler"
done
grep -qx "  refused 1: an address dependency, which the X86_64 dialect has no operand for" "$tmp/r.txt" ||
    fail "the refusal is not counted by reason: $(cat "$tmp/r.txt")"

# --json: the same table, valid under the schema
py=""
for p in /usr/bin/python3 python3; do
    if "$p" -c 'import jsonschema' >/dev/null 2>&1; then py=$p; break; fi
done
if [ -n "$py" ]; then
    "$py" - "$root/harness/litmusc.schema.json" "$tmp/r.json" "$tmp/r.txt" <<'PY' || fail "--json: see above"
import json, sys, jsonschema
schema, rep = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
jsonschema.validate(rep, schema)
text = open(sys.argv[3]).read()
for row in rep["cc_check"]:
    line = ("cc-check %s %s (%s): %d tests, %d compiled, %d lifted: %d same, %d stronger, %d bug, %d refused"
            % (row["compiler"], row["cflags"], row["model"], row["tests"], row["compiled"], row["lifted"],
               row["same"], row["stronger"], row["bug"], row["refused"]))
    if line not in text.splitlines():
        sys.exit("FAIL: --json row not in the text report: " + line)
    if "no-fence" in row["compiler"] and row["bugs"] != [{"test": "SB+poscscs", "state": "P0_r0=0; P1_r0=0;"}]:
        sys.exit("FAIL: --json bugs of the broken compiler: %r" % row["bugs"])
bugs = [r for r in rep["results"] if r.get("cc_check", {}).get("verdict") == "bug"]
if len(bugs) != 2 or any("xchg" in r["cc_check"]["lifted_test"] for r in bugs):
    sys.exit("FAIL: --json: the bug runs and their lifted code: %r" % [r["test"] for r in bugs])
PY
else
    echo "SKIP: no python3 with jsonschema: --json not validated"
    grep -q '"cc_check":\[{"compiler":' "$tmp/r.json" || fail "--json has no cc_check table"
fi

# JUnit: a bug fails with its state, a refusal is skipped with its reason
[ "$(grep -c '<failure message="bug: a state the source forbids: P0_r0=0; P1_r0=0;"' "$tmp/r.xml")" = 2 ] ||
    fail "junit: the broken compiler's two bugs: $(grep failure "$tmp/r.xml")"
[ "$refusals" -ge 1 ] || fail "the address dependency was refused by no configuration (gcc -O0 refuses it)"
[ "$(grep -c '<skipped message="refused: cc-check: P1: cannot lift' "$tmp/r.xml")" = "$refusals" ] ||
    fail "junit: refusals not skipped with their reason: $(grep -c skipped "$tmp/r.xml")"
grep -q 'classname="litmusc.campaign.cc-check.gcc.-O2.rc11"\|classname="litmusc.campaign.cc-check.clang.-O2.rc11"' \
    "$tmp/r.xml" || fail "junit: classname has no compiler and flags"

# HTML: the table, everything escaped
grep -q '<section id="cc-check">' "$tmp/r.html" || fail "html: no cc-check section"
grep -q 'no-fence&lt;&amp;&gt;&quot;&#39;.sh' "$tmp/r.html" || fail "html: the compiler's path not escaped"
grep -q "no-fence<" "$tmp/r.html" && fail "html: a raw '<' from the compiler's path"
grep -q '<td>SB+poscscs: P0_r0=0; P1_r0=0;</td>' "$tmp/r.html" || fail "html: the bug's test and state"
grep -q '1 &times; an address dependency' "$tmp/r.html" || fail "html: refusals by reason"

# killed with SIGKILL and resumed: the same table for a slow compiler
slow="$tmp/slow-cc.sh"
printf '#!/bin/sh\nsleep 0.4\nexec %s "$@"\n' "$real" >"$slow"
chmod +x "$slow"
if command -v setsid >/dev/null 2>&1; then
    setsid "$L" campaign run --db "$tmp/k.db" --quiet --targets cc-check --cc "$slow" --cflags -O0 --cflags -O2 \
        $tests >/dev/null 2>&1 &
    leader=$!
    i=0
    while [ $i -lt 100 ]; do
        n=$(sqlite3 "$tmp/k.db" "select count(*) from runs where status = 'done'" 2>/dev/null || echo 0)
        [ "${n:-0}" -ge 2 ] && break
        sleep 0.1; i=$((i + 1))
    done
    kill -KILL "-$leader" 2>/dev/null
    wait "$leader" 2>/dev/null
    left=$(sqlite3 "$tmp/k.db" "select count(*) from runs where status != 'done'" 2>/dev/null || echo "?")
    [ "$left" != 0 ] || echo "SKIP: the campaign ended before it was killed: resume not exercised"
    "$L" campaign run --db "$tmp/k.db" --quiet --targets cc-check --cc "$slow" --cflags -O0 --cflags -O2 \
        $tests 2>"$tmp/err"
    "$L" campaign report --db "$tmp/k.db" >"$tmp/k.txt"
    for o in $levels; do
        want=$(grep "^cc-check $real $o (" "$tmp/r.txt" | sed 's/^cc-check [^ ]* //')
        got=$(grep "^cc-check $slow $o (" "$tmp/k.txt" | sed 's/^cc-check [^ ]* //')
        [ -n "$want" ] && [ "$want" = "$got" ] || fail "resumed after kill ($left left): '$got', not '$want'"
    done
else
    echo "SKIP: no setsid: kill and resume not exercised"
fi

# SIGINT to the campaign alone, in a compile: the compiler finishes
# undisturbed (its files stay), the run goes back to pending, exit 3.
# The signal goes once a run is marked running, not after a fixed time: a
# background job starts with SIGINT ignored, and the sanitized program on
# a loaded machine took more than 0.6 s to install its handler, so the
# signal was lost and the campaign ran to its end
"$L" campaign run --db "$tmp/i.db" --quiet --targets cc-check --cc "$slow" $tests 2>"$tmp/int.err" &
pid=$!
i=0
while [ $i -lt 300 ]; do
    n=$(sqlite3 "$tmp/i.db" "select count(*) from runs where status = 'running'" 2>/dev/null || echo 0)
    [ "${n:-0}" -ge 1 ] && break
    sleep 0.1; i=$((i + 1))
done
kill -INT $pid
wait $pid
rc=$?
[ $rc = 3 ] || fail "SIGINT: exit $rc, not 3"
sleep 1     # a compiler left behind would say so by now
! grep -q "No such file" "$tmp/int.err" || fail "SIGINT: the compiler's files were removed under it: $(cat "$tmp/int.err")"
[ "$(sqlite3 "$tmp/i.db" "select count(*) from runs where status in ('running', 'error')" 2>/dev/null || echo 0)" = 0 ] ||
    fail "SIGINT: a run left running or failed"
"$L" campaign run --db "$tmp/i.db" --quiet --targets cc-check --cc "$slow" $tests 2>/dev/null
"$L" campaign report --db "$tmp/i.db" | grep -q "runs: $ntests finished, 0 failed, 0 not run" ||
    fail "SIGINT: not every run finished after a resume"

# two shards merged: the same table
for s in 1 2; do
    "$L" campaign run --db "$tmp/s$s.db" --quiet --shard $s/2 --targets cc-check "$@" $tests 2>/dev/null
done
"$L" campaign merge "$tmp/m.db" "$tmp/s1.db" "$tmp/s2.db" >/dev/null || fail "merge of cc-check shards"
"$L" campaign report --db "$tmp/m.db" >"$tmp/m.txt"
[ "$(grep -v '^campaign ' "$tmp/m.txt")" = "$(grep -v '^campaign ' "$tmp/r.txt")" ] ||
    fail "merged shards: $(diff "$tmp/r.txt" "$tmp/m.txt")"

# the shards of parallel and slurm get the flag sets too
"$L" campaign slurm --db "$tmp/j.db" --shards 2 --targets cc-check --cc "$real" --cflags "-O1 -fno-inline" \
    $tests >"$tmp/job.sh" 2>/dev/null
grep -q -- "--targets cc-check --cc $real --cflags '-O1 -fno-inline' " "$tmp/job.sh" ||
    fail "slurm: the shards' command lacks the flag set: $(grep -- --shard "$tmp/job.sh")"

# diff: a real compiler's campaign against the broken one's, the same flags
two="$c11/SB+poscscs.litmus $c11/LB+porlxrlxs.litmus"
"$L" campaign run --db "$tmp/g.db" --quiet --targets cc-check --cc "$real" $two 2>/dev/null
"$L" campaign run --db "$tmp/b.db" --quiet --targets cc-check --cc "$broken" $two 2>/dev/null
"$L" campaign diff "$tmp/g.db" "$tmp/b.db" >"$tmp/diff"
rc=$?
[ $rc = 1 ] && grep -qx "SB+poscscs on cc-check (rc11, -O2): verdict same -> bug" "$tmp/diff" &&
    [ "$(grep -c verdict "$tmp/diff")" = 1 ] || fail "diff of a real and a broken compiler: exit $rc: $(cat "$tmp/diff")"

# a damaged stored result: corrupt in its row and in the summary, not a verdict
cp "$tmp/c.db" "$tmp/d.db"
sqlite3 "$tmp/d.db" "update runs set result = '{broken' where id = (select min(id) from runs)" 2>/dev/null ||
    python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(\"update runs set result='{broken' where id=(select min(id) from runs)\"); c.commit()" "$tmp/d.db"
"$L" campaign report --db "$tmp/d.db" >"$tmp/d.txt"
grep -q "1 corrupt (the stored result does not parse)" "$tmp/d.txt" || fail "summary: the damaged run: $(head -1 "$tmp/d.txt")"
grep -q "; 0 not run, 0 failed, 1 corrupt$" "$tmp/d.txt" || fail "cc table: the damaged run: $(cat "$tmp/d.txt")"
# --cflags without cc-check, and a --cc with its flags for cc-check, are usage errors
"$L" campaign run --db "$tmp/x.db" --cflags -O2 $tests >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 2 ] && grep -q "cflags is for --targets cc-check" "$tmp/err" || fail "--cflags without cc-check: exit $rc"
[ ! -e "$tmp/x.db" ] || fail "--cflags without cc-check left a database"
"$L" campaign run --db "$tmp/x.db" --targets cc-check --cc "$real -O2" $tests >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 2 ] && grep -q "cc-check takes the compiler alone, its flags in --cflags" "$tmp/err" ||
    fail "--cc with flags for cc-check: exit $rc: $(cat "$tmp/err")"

[ "$fails" -eq 0 ] || { echo "campaign_cc: $fails failure(s)"; exit 1; }
echo "campaign_cc:$ccs and a broken compiler x $levels on $ntests tests: report (text, json, junit, html) = cc-check; kill, resume, merge"
