#!/bin/sh
# run's log is a litmus7 log: herdtools7's own log tools read it.  msum7
# adds two logs state by state, exactly as the histograms say; mcompare7
# finds a log equal to itself, and against `litmusc model` (a herd log) it
# flags the test whose log shows a state the model forbids (a forged one)
# and no other.  Needs mcompare7 and msum7 (herdtools7): on PATH, or named
# by MCOMPARE7 and MSUM7; SKIP without them.
set -u
here=$(cd "$(dirname "$0")" && pwd)
L=${LITMUSC:?LITMUSC must name the program under test}
ex="$here/../../examples"
MCOMPARE7=${MCOMPARE7:-$(command -v mcompare7 || true)}
MSUM7=${MSUM7:-$(command -v msum7 || true)}
if [ -z "$MCOMPARE7" ] || [ -z "$MSUM7" ]; then
    echo "SKIP: mcompare7 and msum7 (herdtools7) not found; put them on PATH or set MCOMPARE7 and MSUM7"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LITMUSC_CACHE="$tmp/cache"
. "$(cd "$(dirname "$0")/.." && pwd)/seed_cache.sh"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
cd "$tmp" || exit 1
tests="$ex/x86/SB.litmus $ex/x86/MP.litmus $ex/x86/IRIW.litmus"
# shellcheck disable=SC2086
"$L" run -s 2000 -r 2 $tests > a.log 2> a.err || fail "run a: $(head -3 a.err)"
# shellcheck disable=SC2086
"$L" run -s 3000 -r 1 $tests > b.log 2> b.err || fail "run b: $(head -3 b.err)"

# "TEST|STATE COUNT" for every histogram line of a log, spaces dropped
hist() {
    awk '/^Test / { name = $2 }
         /^[0-9]+ *[*:]> ?/ { n = $0; sub(/ *[*:]>.*/, "", n); s = $0; sub(/^[0-9]+ *[*:]> ?/, "", s); gsub(/ /, "", s);
                              print name "|" s, n }' "$@"
}
hist a.log b.log | awk '{ sum[$1] += $2 } END { for (k in sum) print k, sum[k] }' | sort > want.sum
"$MSUM7" a.log b.log > sum.log 2> sum.err || fail "msum7 failed: $(head -3 sum.err)"
hist sum.log | sort > got.sum
[ -s want.sum ] || fail "no histogram lines in the logs"
cmp -s want.sum got.sum || fail "msum7's sums differ from the histograms: $(diff want.sum got.sum | head -6)"
for t in SB MP IRIW; do
    grep -q "^Test $t " sum.log || fail "msum7 lost test $t"
done
# Positive and Negative add up too
pn() { awk '/^Test / { name = $2 } /^Positive:/ { gsub(/,/, ""); print name, $2, $4 }' "$@"; }
pn a.log b.log | awk '{ p[$1] += $2; q[$1] += $3 } END { for (k in p) print k, p[k], q[k] }' | sort > want.pn
pn sum.log | sort > got.pn
cmp -s want.pn got.pn || fail "msum7's Positive/Negative differ: $(diff want.pn got.pn | head -4)"

"$MCOMPARE7" a.log a.log > self.out 2>&1 || fail "mcompare7 a a failed: $(head -3 self.out)"
for t in SB MP IRIW; do
    grep -q "^$t *|.* == *\$" self.out || fail "mcompare7 does not find $t equal to itself: $(cat self.out)"
done

# shellcheck disable=SC2086
"$L" model $tests > model.log || fail "litmusc model"
"$MCOMPARE7" -pos pos.txt model.log a.log > cmp.out 2>&1 || fail "mcompare7 model a failed: $(head -3 cmp.out)"
[ -s pos.txt ] && fail "mcompare7 finds states the model forbids in a real x86 run: $(cat pos.txt)"
# forge MP's forbidden state (1:EAX=1 /\ 1:EBX=0) into the log
awk '/^Test / { name = $2 } { print } name == "MP" && /^Histogram/ { print "7     *>1:EAX=1; 1:EBX=0;" }' a.log > forged.log
"$MCOMPARE7" -pos pos.txt model.log forged.log > forged.out 2>&1 || fail "mcompare7 model forged failed"
[ "$(cat pos.txt 2>/dev/null)" = MP ] || fail "mcompare7 -pos does not name exactly MP for the forged log: $(cat pos.txt 2>&1)"
grep -q '^MP.*+\[1:EAX=1; 1:EBX=0;\]' forged.out || fail "mcompare7 does not show the forged state: $(cat forged.out)"

[ "$fails" -eq 0 ] || exit 1
echo "litmus_tools: msum7 and mcompare7 read run's logs"
