#!/bin/sh
# The standalone Java runner (run --target java) on store buffering: the
# weak outcome 0,0 shows with plain and with opaque accesses, never with
# volatile ones; one JVM runs all three; the compiled classes are cached
# and reused; a run stopped at its time limit still reports its partial
# histogram.  Needs a JDK (javac, java).
set -u
L=${LITMUSC:?LITMUSC must name the program under test}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LITMUSC_CACHE="$tmp/cache"
. "$(cd "$(dirname "$0")/.." && pwd)/seed_cache.sh"
fail=0
bad() { echo "FAIL: $*"; fail=1; }

sb() {  # sb NAME READ WRITE
    cat > "$tmp/$1.litmus" <<LIT
Java $1
{ x = 0; y = 0; 0:X=x; 0:Y=y; 1:X=x; 1:Y=y; }
Thread0 { X.$3(1); int r0 = Y.$2(); }
Thread1 { Y.$3(1); int r0 = X.$2(); }
exists (0:r0=0 /\\ 1:r0=0)
LIT
}
sb SB-plain get set
sb SB-opaque getOpaque setOpaque
sb SB-volatile getVolatile setVolatile

# The weak outcome is a matter of timing: on a loaded machine one short run
# may miss it, so up to three runs of growing size are made.  Volatile SB
# must stay Never in every one of them.
obs() { sed -n "s/^Observation $1 \([A-Za-z]*\) .*/\1/p" "$tmp/log"; }
for size in "20000 10" "100000 10" "100000 40"; do
    set -- $size
    S=$1 R=$2
    "$L" run --target java -s "$S" -r "$R" "$tmp/SB-plain.litmus" "$tmp/SB-opaque.litmus" \
        "$tmp/SB-volatile.litmus" > "$tmp/log" 2> "$tmp/err"
    st=$?
    [ "$st" -eq 0 ] || { bad "run exited $st"; cat "$tmp/err"; break; }
    o=$(obs SB-volatile)
    [ "$o" = Never ] || bad "SB-volatile: the weak outcome must never show, got '$o'"
    [ "$(obs SB-plain)" = Sometimes ] && [ "$(obs SB-opaque)" = Sometimes ] && break
done
for t in SB-plain SB-opaque; do
    o=$(obs "$t")
    [ "$o" = Sometimes ] || bad "$t: expected the weak outcome (Sometimes), got '$o'"
done
grep -q '^Test SB-plain Allowed$' "$tmp/log" || bad "no litmus7 Test line"
grep -q '^Histogram (' "$tmp/log" || bad "no litmus7 Histogram line"
grep -q 'FORBIDDEN' "$tmp/log" && bad "a state outside the behaviour set was reported"
# every histogram adds up to the iterations asked for
for t in SB-plain SB-opaque SB-volatile; do
    n=$(awk -v t="$t" '$1=="Test"{on=($2==t)} on && /^[0-9]+ *[*:]>/{s+=$1} END{print s+0}' "$tmp/log")
    [ "$n" -eq $((S * R)) ] || bad "$t: histogram counts add up to $n, not $((S * R))"
done

# the second run compiles nothing: cached classes keep their time stamps
ls -R "$LITMUSC_CACHE" > /dev/null 2>&1 || bad "no cache folder"
before=$(find "$LITMUSC_CACHE" -name '*.class' -exec stat -c '%n %Y' {} + | sort)
[ -n "$before" ] || bad "no class files cached"
sleep 1
"$L" run --target java -s 1000 -r 2 "$tmp/SB-plain.litmus" > "$tmp/log2" 2>&1 || bad "cached run failed"
after=$(find "$LITMUSC_CACHE" -name '*.class' -exec stat -c '%n %Y' {} + | sort)
[ "$before" = "$after" ] || bad "the cached classes were rebuilt"
grep -q '^Observation SB-plain ' "$tmp/log2" || bad "cached run printed no Observation line"

# a time limit stops the JVM; the partial histogram is still reported
"$L" run --target java -s 100000 -r 1000000 --timeout 5 "$tmp/SB-opaque.litmus" \
    > "$tmp/log3" 2> "$tmp/err3"
st=$?
[ "$st" -eq 3 ] || bad "a run stopped at its time limit must exit 3, not $st"
grep -q '^Observation SB-opaque ' "$tmp/log3" || bad "no partial result after the time limit"
grep -qi 'timed out' "$tmp/log3" "$tmp/err3" || bad "the time limit is not reported"

# the time limit is per test: each of two long tests gets its own 3 s,
# the second runs in a fresh JVM, and both report partial histograms
cp "$tmp/SB-opaque.litmus" "$tmp/SB-opaque2.litmus"
sed -i 's/^Java SB-opaque/Java SB-opaque2/' "$tmp/SB-opaque2.litmus"
t0=$(date +%s)
"$L" run --target java --json -s 100000 -r 1000000 --timeout 3 "$tmp/SB-opaque.litmus" \
    "$tmp/SB-opaque2.litmus" > "$tmp/log5" 2> "$tmp/err5"
st=$? t1=$(date +%s)
[ "$st" -eq 3 ] || bad "two tests stopped at their time limits must exit 3, not $st"
python3 - "$tmp/log5" <<'PY' || bad "per-test time limit: $(cat "$tmp/err5" | head -3)"
import json, sys
doc = json.load(open(sys.argv[1]))
runs = doc["results"]
assert [r["test"] for r in runs] == ["SB-opaque", "SB-opaque2"], [r["test"] for r in runs]
for r in runs:
    run = r.get("run") or {}
    assert run.get("status") == "timed-out", "%s: status %r" % (r["test"], run.get("status"))
    assert run["iterations"] > 0, "%s: no iterations" % r["test"]
    assert sum(h["count"] for h in run["histogram"]) == run["iterations"], "%s: counts" % r["test"]
    assert run["seconds"] < 3.5, "%s: ran %.1f s past a 3 s limit" % (r["test"], run["seconds"])
PY
[ $((t1 - t0)) -lt 60 ] || bad "two 3 s limits took $((t1 - t0)) s"

# more actors than CPUs: four threads still run (and say they shared CPUs)
cat > "$tmp/IRIW.litmus" <<'LIT'
Java IRIW
{ x = 0; y = 0; 0:X=x; 1:Y=y; 2:X=x; 2:Y=y; 3:X=x; 3:Y=y; }
Thread0 { X.setOpaque(1); }
Thread1 { Y.setOpaque(1); }
Thread2 { int r0 = X.getOpaque(); int r1 = Y.getOpaque(); }
Thread3 { int r0 = Y.getOpaque(); int r1 = X.getOpaque(); }
exists (2:r0=1 /\ 2:r1=0 /\ 3:r0=1 /\ 3:r1=0)
LIT
"$L" run --target java -s 2000 -r 5 "$tmp/IRIW.litmus" > "$tmp/log4" 2>&1 ||
    bad "four threads: run exited $?: $(tail -3 "$tmp/log4")"
if [ "$(nproc)" -lt 4 ]; then
    grep -q 'oversubscribed=1' "$tmp/log4" || bad "four threads on $(nproc) CPUs not reported as oversubscribed"
fi
grep -q '^Observation IRIW ' "$tmp/log4" || bad "four threads: no result"

[ "$fail" -eq 0 ] && echo "java_sb: ok"
exit "$fail"
