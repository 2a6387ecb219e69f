#!/bin/sh
# Java synchronized blocks (tests/locks/java): the verdicts under jam21 and
# sc (a counter under one monitor loses no update, also with the monitor on
# both sides of a branch; re-entry does not release the monitor; message
# passing under one monitor is forbidden and under two allowed by jam21);
# the monitor enter/exit instructions in the IR; parse
# and print round trips; bad input at its place (exit 2); jls04 with
# monitors (jam21's states on every test); the detectors seeing the monitor as a lock; and the Java
# targets' sources compiling (javac; the jcstress ones against
# JCSTRESS_JAR, or against stand-ins of its annotations), then a short run
# of the standalone runner.
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${LITMUSC:?set LITMUSC to the litmusc program}"
L=$LITMUSC
dir="$here/../locks/java"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
export LITMUSC_CACHE="$tmp/cache"
. "$(cd "$(dirname "$0")/.." && pwd)/seed_cache.sh"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# verdict MODEL TEST WANT: the Observation line of TEST under MODEL
verdict() {
    got=$("$L" model --model "$1" "$dir/$2.litmus" 2> "$tmp/err" | grep '^Observation ')
    [ "$got" = "Observation $2 $3" ] || fail "$2 under $1: '$got', want 'Observation $2 $3' $(cat "$tmp/err")"
}
verdict jam21 Counter+sync "Never 0 2"
verdict sc Counter+sync "Never 0 2"
verdict jam21 Counter+reentry "Never 0 2"
verdict sc Counter+reentry "Never 0 2"
verdict jam21 MP+sync "Never 0 3"
verdict sc MP+sync "Never 0 3"
verdict jam21 MP+sync2 "Sometimes 2 6"
verdict jam21 Counter+sync+if "Never 0 5"
verdict sc Counter+sync+if "Never 0 3"
verdict sc MP+sync2 "Never 0 3"
# the re-entered counter's one final state is 3: all three increments land
"$L" model --model jam21 "$dir/Counter+reentry.litmus" | sed -n '/^States/,/^\(Ok\|No\)$/p' > "$tmp/states"
printf 'States 1\n[x]=3;\nNo\n' | cmp -s - "$tmp/states" || fail "Counter+reentry states: $(cat "$tmp/states")"

# Without the monitor the same counter loses an update: the lock is what
# forbids [x]=1.
sed -e '/synchronized/d' -e '/^  }$/d' "$dir/Counter+sync.litmus" > "$tmp/nosync.litmus"
grep -q synchronized "$tmp/nosync.litmus" && fail "the unlocked counter still has a synchronized"
"$L" model --model jam21 "$tmp/nosync.litmus" | grep -q '^Observation Counter+sync Sometimes 2 2$' ||
    fail "the unlocked counter: [x]=1 should be allowed"

# the IR: one enter and one exit per thread, the inner re-entry none
"$L" ir "$dir/Counter+reentry.litmus" > "$tmp/ir" 2>&1 || fail "ir: $(cat "$tmp/ir")"
[ "$(grep -c 'lock.monitor &m ' "$tmp/ir")" -eq 4 ] || fail "Counter+reentry: want 2 lock.monitor and 2 unlock.monitor"
[ "$(grep -c '^    lock.monitor &m ' "$tmp/ir")" -eq 2 ] || fail "Counter+reentry: want one monitor enter per thread"
grep -q '^  init M = ' "$tmp/ir" && fail "the monitor's handle is a register of the IR"

# parse, print, parse again: the same tree and the same text
"$L" parse --check "$dir"/*.litmus > "$tmp/printed" 2> "$tmp/err" || fail "parse --check: $(cat "$tmp/err")"
[ "$(grep -c 'synchronized (M) {' "$tmp/printed")" -ge 5 ] || fail "the printed tests lost their synchronized blocks"

# bad input: exit 2, file:line:col
bad() {  # bad NAME WANT-LINE:COL WANT-TEXT
    "$L" model "$tmp/$1.litmus" > /dev/null 2> "$tmp/err"
    rc=$?
    [ "$rc" -eq 2 ] || fail "$1: exit $rc, want 2"
    grep -q "^litmusc model: $tmp/$1.litmus:$2: error: .*$3" "$tmp/err" || fail "$1: $(cat "$tmp/err")"
}
cat > "$tmp/data.litmus" <<'LIT'
Java sync-on-data
{ x=0; y=0; 0:X=x; 0:Y=y; 1:Y=y; }
Thread0 {
  synchronized (Y) { X.set(1); }
}
Thread1 { int r0 = Y.get(); }
exists (1:r0=1)
LIT
bad data 6:20 "Y is bound to y, the monitor of synchronized at line 4; a monitor is not data"
cat > "$tmp/unbalanced.litmus" <<'LIT'
Java sync-unbalanced
{ x=0; 0:X=x; 0:M=m; }
Thread0 {
  synchronized (M) {
    X.set(1);
}
exists (x=1)
LIT
bad unbalanced 3:9 "unbalanced '{'"
cat > "$tmp/observed.litmus" <<'LIT'
Java sync-observed
{ x=0; 0:X=x; 0:M=m; }
Thread0 { synchronized (M) { X.set(1); } }
exists (m=1)
LIT
bad observed 4:9 "the condition observes m"
cat > "$tmp/noblock.litmus" <<'LIT'
Java sync-noblock
{ x=0; 0:X=x; 0:M=m; }
Thread0 { synchronized (M) X.set(1); }
exists (x=1)
LIT
bad noblock 3:28 "expected '{' (the body of synchronized)"

# jls04: monitor enter and exit are synchronization actions, ordered by so
# with mutual exclusion, an exit synchronizing with every later enter of
# its monitor.  On every lock test it gives jam21's states (the counter
# loses no update, MP under one monitor is forbidden, under two allowed),
# and it forbids load buffering inside one monitor (LB+sync), which it
# allows without (jls04's CTC-style LB), while two monitors order nothing
# (SB+twomon stays allowed).
for f in "$dir"/*.litmus; do
    n=$(basename "$f" .litmus)
    "$L" model --model jls04 "$f" 2> "$tmp/err" | sed -n '/^States/,/^\(Ok\|No\|Loop Ok\|Loop No\)$/p' | grep -v '^\(Ok\|No\)$' > "$tmp/j"
    "$L" model --model jam21 "$f" 2>&1 | sed -n '/^States/,/^\(Ok\|No\|Loop Ok\|Loop No\)$/p' | grep -v '^\(Ok\|No\)$' > "$tmp/a"
    [ -s "$tmp/j" ] && cmp -s "$tmp/j" "$tmp/a" || fail "jls04 on $n: not jam21's states: $(cat "$tmp/j" "$tmp/err")"
done
verdict jls04 LB+sync "Never 0 2"
verdict jls04 SB+twomon "Sometimes 6 18"
verdict jls04 MP+sync2 "Sometimes 6 18"
sed -e 's/synchronized (M) { //' -e 's/ } }$/ }/' "$dir/LB+sync.litmus" > "$tmp/lb.litmus"
grep -q synchronized "$tmp/lb.litmus" && fail "LB without its monitor still has one"
"$L" model --model jls04 "$tmp/lb.litmus" | grep -q '^Observation LB+sync Sometimes' || fail "jls04: LB without the monitor should be allowed"
"$L" model --model jls04 --notes "$dir/SB+twomon.litmus" > "$tmp/notes" 2>&1
grep -q '^(\*   C1 = {.*Thread0:unlock m.*}  E1 = T: Thread0: lock m, W x=1, R y=0, unlock m; ' "$tmp/notes" ||
    fail "jls04's notes do not name the monitor actions: $(grep '(\*' "$tmp/notes" | head -3)"
# jls04 takes Java's monitors only: a C test is not Java (exit 2)
"$L" model --model jls04 "$here/../locks/c/trylock.litmus" > "$tmp/out" 2> "$tmp/err"
[ $? -eq 2 ] && grep -q "jls04 is a model of Java programs, not of C tests" "$tmp/err" && [ ! -s "$tmp/out" ] ||
    fail "jls04 on a C lock test: $(cat "$tmp/err")"

# races: the monitor orders the counter (hb) and is a common lock (hybrid,
# lockset); MP+sync's x, outside the monitor, races in every detector
"$L" races --detector all "$dir/Counter+sync.litmus" "$dir/MP+sync.litmus" > "$tmp/races" 2> "$tmp/err"
rc=$?
[ "$rc" -eq 0 ] || fail "races: exit $rc $(cat "$tmp/err")"
for d in exact hb hybrid lockset; do
    grep -q "^Races Counter+sync $d 0$" "$tmp/races" || fail "Counter+sync: $d reports a race"
    grep -q "^Races MP+sync $d 1$" "$tmp/races" || fail "MP+sync: $d should report the one race on x"
    grep -q "^Race MP+sync $d Thread0:0 .* W plain x <-> Thread1:3 .* R plain x " "$tmp/races" ||
        fail "MP+sync: $d does not name the race on x"
done
# the same counter without the monitor: hybrid and lockset report it
"$L" races --detector all "$tmp/nosync.litmus" > "$tmp/races2" 2>&1
grep -q '^Races Counter+sync hybrid [1-9]' "$tmp/races2" || fail "the unlocked counter: hybrid reports nothing"
grep -q '^Races Counter+sync lockset [1-9]' "$tmp/races2" || fail "the unlocked counter: lockset reports nothing"

# the Java targets
"$L" emit --target java -o "$tmp/jr" "$dir"/*.litmus > "$tmp/jr.list" 2> "$tmp/err" || fail "emit java: $(cat "$tmp/err")"
"$L" emit --target jcstress -o "$tmp/jc" "$dir"/*.litmus > "$tmp/jc.list" 2> "$tmp/err" ||
    fail "emit jcstress: $(cat "$tmp/err")"
for f in "$tmp"/jr/litmusc/generated/MP_sync.java "$tmp"/jc/litmusc/generated/MP_sync.java; do
    [ "$(grep -c 'm\$lock\.lock();' "$f")" -eq 2 ] || fail "$f: want two monitor enters"
    [ "$(grep -c 'm\$lock\.unlock();' "$f")" -eq 2 ] || fail "$f: want two monitor exits"
    grep -q 'final java.util.concurrent.locks.ReentrantLock m\$lock = ' "$f" || fail "$f: no lock field"
done
if ! command -v javac > /dev/null 2>&1; then
    echo "SKIP: no javac on PATH: the generated Java was not compiled"
    [ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
    exit 0
fi
find "$tmp/jr" -name '*.java' > "$tmp/jr.srcs"
javac -nowarn -d "$tmp/jr.classes" @"$tmp/jr.srcs" > "$tmp/javac" 2>&1 || fail "javac (runner): $(head -20 "$tmp/javac")"
cp="${JCSTRESS_JAR:-}"
if [ -z "$cp" ]; then
    # stand-ins for the jcstress API the sources use, to check that they
    # compile (not how jcstress runs them)
    s="$tmp/stub/org/openjdk/jcstress"
    mkdir -p "$s/annotations" "$s/infra/results"
    for a in Actor Arbiter JCStressTest Result State; do
        printf 'package org.openjdk.jcstress.annotations;\npublic @interface %s {}\n' "$a" > "$s/annotations/$a.java"
    done
    printf 'package org.openjdk.jcstress.annotations;\npublic @interface Description { String value(); }\n' \
        > "$s/annotations/Description.java"
    printf 'package org.openjdk.jcstress.annotations;\npublic enum Expect { ACCEPTABLE, ACCEPTABLE_INTERESTING, FORBIDDEN }\n' \
        > "$s/annotations/Expect.java"
    cat > "$s/annotations/Outcome.java" <<'JAVA'
package org.openjdk.jcstress.annotations;
import java.lang.annotation.Repeatable;
@Repeatable(Outcome.Outcomes.class)
public @interface Outcome {
    String[] id() default {};
    Expect expect();
    String desc() default "";
    @interface Outcomes { Outcome[] value(); }
}
JAVA
    for r in $(sed -n 's/^import org\.openjdk\.jcstress\.infra\.results\.\([A-Z_]*_Result\);$/\1/p' \
               "$tmp"/jc/litmusc/generated/*.java | sort -u); do
        n=$(printf '%s' "${r%_Result}" | wc -c)
        { printf 'package org.openjdk.jcstress.infra.results;\npublic class %s {\n' "$r"
          i=1
          while [ "$i" -le "$n" ]; do printf '    public int r%d;\n' "$i"; i=$((i + 1)); done
          printf '}\n'; } > "$s/infra/results/$r.java"
    done
    find "$tmp/stub" -name '*.java' > "$tmp/stub.srcs"
    javac -nowarn -d "$tmp/stub.classes" @"$tmp/stub.srcs" > "$tmp/javac" 2>&1 ||
        fail "javac (jcstress stand-ins): $(head -10 "$tmp/javac")"
    cp="$tmp/stub.classes"
    echo "SKIP: JCSTRESS_JAR is not set; the jcstress sources were compiled against stand-ins of its API"
fi
find "$tmp/jc" -name '*.java' > "$tmp/jc.srcs"
javac -nowarn -cp "$cp" -d "$tmp/jc.classes" @"$tmp/jc.srcs" > "$tmp/javac" 2>&1 ||
    fail "javac (jcstress): $(head -20 "$tmp/javac")"

# a short run: no forbidden state shows (the runner checks each against jam21)
if command -v java > /dev/null 2>&1; then
    "$L" run --target java -s 5000 -r 4 "$dir"/*.litmus > "$tmp/run" 2>&1 || fail "run --target java: $(tail -5 "$tmp/run")"
    grep -q FORBIDDEN "$tmp/run" && fail "run --target java: a forbidden state: $(grep -m3 FORBIDDEN "$tmp/run")"
    for t in Counter+sync Counter+reentry Counter+sync+if MP+sync; do
        grep -q "^Observation $t Never " "$tmp/run" || fail "run --target java: $t's condition showed"
    done
else
    echo "SKIP: no java on PATH: the runner was not run"
fi

[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "locks_java: ok"
