#!/bin/sh
# Coverage as a result: every run's verdict block has
# `Coverage NAME seen/allowed first=...` that agrees with its State and
# Unseen lines (a state is first seen at the end of a run, so at a multiple
# of -s, no later than the iterations run; under --until-covered the runs
# grow from the Config line's ramp=N instances, and how many directed runs
# a round of one size has depends on what is still unseen, so there the
# earliest state must come within the first few one-instance runs, the
# latest at the covering iteration); --until-covered goes on past -r
# until every allowed state is seen and stops right then, or stops at
# --max-iterations with "not covered"; the c11 runner also counts the
# states the test's x86 compilation can show and aims at those (rc11's
# MP+rlx weak state is not one); bad uses are exit 2.
set -u
here=$(cd "$(dirname "$0")" && pwd)
L=${LITMUSC:?LITMUSC must name the program under test}
ex="$here/../../examples"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LITMUSC_CACHE="$tmp/cache"
. "$(cd "$(dirname "$0")/.." && pwd)/seed_cache.sh"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# run_ends SIZE ITERS: the iteration counts at which runs of SIZE end, up to ITERS.
run_ends() {
    awk -v s="$1" -v max="$2" 'BEGIN {
        for (done = 0; done < max; ) {
            done += done + s > max ? max - done : s
            print done
        } }'
}
# check_coverage LOG NAME SIZE [ramp]: the Coverage line against the State/Unseen lines
check_coverage() {
    log=$1 name=$2 size=$3 ramp=${4:-}
    line=$(grep "^Coverage $name " "$log")
    [ -n "$line" ] || { fail "$name: no Coverage line: $(cat "$log")"; return; }
    seen=$(grep -c "^State $name allowed" "$log")
    unseen=$(grep -c "^Unseen $name " "$log")
    echo "$line" | grep -q "^Coverage $name $seen/$((seen + unseen)) first=" ||
        fail "$name: '$line' does not say $seen/$((seen + unseen))"
    iters=$(sed -n "s/^Config $name .* iterations=\([0-9]*\).*/\1/p" "$log")
    if [ -n "$ramp" ]; then
        ramp=$(sed -n "s/^Config $name .* ramp=\([0-9]*\) .*/\1/p" "$log")
        [ -n "$ramp" ] || fail "$name: --until-covered, but no ramp= in the Config line"
    fi
    firsts=$(echo "$line" | sed 's/.* first=\([^ ]*\).*/\1/' | tr ',' ' ')
    ends=" $(run_ends "$size" "$iters" | tr '\n' ' ')"
    nf=0 nd=0 least=
    for f in $firsts; do
        nf=$((nf + 1))
        [ "$f" = - ] && { nd=$((nd + 1)); continue; }
        if [ -z "$ramp" ]; then
            case $ends in
            *" $f "*) ;;
            *) fail "$name: first-seen $f is not at the end of a run (runs of $size)" ;;
            esac
        fi
        [ -z "$least" ] || [ "$f" -lt "$least" ] && least=$f
        [ "$f" -le "$iters" ] || fail "$name: first-seen $f after the $iters iterations run"
    done
    # the ramp's first runs are of RAMP instances each, a dozen at most
    # before the first free one, and any run shows some state
    [ -z "$ramp" ] || [ -z "$least" ] || [ "$least" -le $((12 * ramp)) ] ||
        fail "$name: earliest first-seen $least, after the first runs of $ramp instances"
    if [ -n "$ramp" ] && echo "$line" | grep -q '(covered after'; then
        n=$(echo "$line" | sed 's/.*(covered after \([0-9]*\) iterations).*/\1/')
        [ "$n" -eq "$iters" ] || fail "$name: covered after $n iterations, but $iters were run"
        echo " $firsts " | grep -q " $n " ||
            fail "$name: covered after $n, but no state was first seen there: $firsts"
    fi
    [ "$nf" -eq $((seen + unseen)) ] || fail "$name: $nf first-seen entries for $((seen + unseen)) allowed states"
    [ "$nd" -eq "$unseen" ] || fail "$name: $nd never-seen entries, $unseen Unseen lines"
}

"$L" run -s 2000 -r 3 "$ex/x86/SB.litmus" "$ex/x86/MP.litmus" > "$tmp/plain.log" 2> "$tmp/err" ||
    fail "run SB MP: $(cat "$tmp/err")"
check_coverage "$tmp/plain.log" SB 2000
check_coverage "$tmp/plain.log" MP 2000
grep -q '(covered after\|(not covered' "$tmp/plain.log" && fail "a coverage outcome without --until-covered"

# --until-covered: SB shows all four states on any machine with two CPUs
# (the interleavings alone give three, the store buffers the fourth)
"$L" run -s 1000 -r 1 --until-covered --max-iterations 50M "$ex/x86/SB.litmus" > "$tmp/cov.log" 2> "$tmp/err" ||
    fail "run --until-covered SB: $(cat "$tmp/err")"
check_coverage "$tmp/cov.log" SB 1000 ramp
line=$(grep '^Coverage SB ' "$tmp/cov.log")
echo "$line" | grep -q '^Coverage SB 4/4 first=.* (covered after [0-9]* iterations)$' ||
    fail "SB --until-covered not covered: $line"
at=$(echo "$line" | sed 's/.*covered after \([0-9]*\) iterations.*/\1/')
iters=$(sed -n 's/^Config SB .* iterations=\([0-9]*\).*/\1/p' "$tmp/cov.log")
[ "$at" = "$iters" ] || fail "SB --until-covered ran $iters iterations, covered after $at: it did not stop then"
max=$(echo "$line" | sed 's/.* first=\([^ ]*\).*/\1/' | tr ',' '\n' | sort -n | tail -1)
[ "$max" = "$at" ] || fail "SB: covered after $at, but the last state was first seen at $max"

# the directed schedules went with it: SB's three states where a store
# is seen are interleavings of its two threads on one CPU, the fourth
# both threads side by side with their stores held back
grep -q '^Config SB .* schedules=4 directed=[0-9]* interleavings=3 interleaved=[0-9]* ' "$tmp/cov.log" ||
    fail "SB --until-covered: no directed schedules in Config: $(grep '^Config' "$tmp/cov.log")"

# the runner itself: schedules alternate with free runs and are dropped
# once their state is seen; a malformed list is a usage error
"$L" emit --target x86 "$ex/x86/SB.litmus" -o "$tmp/sb/" || fail "emit SB"
cc -O2 -std=c11 -pthread -o "$tmp/sb/SB" "$tmp/sb"/*.c || fail "cc SB"
"$tmp/sb/SB" -s 1000 -r 1 --until-covered '0,0;0,1;1,0;1,1' --schedules '1:0,1;2:1,0' --max-iterations 20M \
    > "$tmp/sb.hist" || fail "SB runner with schedules: exit $?"
grep -q '^config schedules 2$' "$tmp/sb.hist" && grep -q '^config directed [0-9]' "$tmp/sb.hist" || fail "SB runner: $(grep config "$tmp/sb.hist")"
grep -q '^covered 1$' "$tmp/sb.hist" || fail "SB runner with schedules not covered"
# with a CPU per thread each round has a handshake run, the threads
# meeting on every instance (a state never seen keeps the rounds going)
"$tmp/sb/SB" -s 1000 -r 1 --until-covered '7,7' --max-iterations 100000 > "$tmp/hs.hist" ||
    fail "SB runner, handshake runs: exit $?"
grep -q '^iterations 100000$' "$tmp/hs.hist" || fail "SB runner, handshake runs: $(grep iterations "$tmp/hs.hist")"
if grep -q '^config oversubscribed 0$' "$tmp/hs.hist"; then
    grep -q '^config handshake [1-9][0-9]*$' "$tmp/hs.hist" || fail "SB runner: no handshake runs: $(grep config "$tmp/hs.hist")"
else
    ! grep -q '^config handshake' "$tmp/hs.hist" || fail "SB runner on one CPU made handshake runs"
fi
# a stalled run: the round's first run, one instance with every thread's
# stores held behind a store that misses, shows SB's weak state on that
# instance where the two threads have a CPU each (x86 and c11 runners;
# one success in five tries is asked, where unstalled single-instance
# runs show it 1 to 5 times in a hundred)
mkdir -p "$tmp/sbc"
"$L" emit --target c11 "$ex/c/SB+rlx.litmus" -o "$tmp/sbc/" || fail "emit SB+rlx for c11"
cc -O2 -std=c11 -pthread -o "$tmp/sbc/SB" "$tmp/sbc"/*.c || fail "cc SB+rlx"
for runner in "$tmp/sb/SB" "$tmp/sbc/SB"; do
    shown=0
    for try in 1 2 3 4 5; do
        "$runner" -s 1000 -r 1 --until-covered '0,0' --max-iterations 1 > "$tmp/stall.hist" ||
            fail "$runner, stalled run: exit $?"
        grep -q '^config stalled 1$' "$tmp/stall.hist" || fail "$runner: no stalled run: $(grep config "$tmp/stall.hist")"
        grep -q '^config oversubscribed 0$' "$tmp/stall.hist" || break
        grep -q '^first 1 0 0$' "$tmp/stall.hist" && { shown=$try; break; }
    done
    if grep -q '^config oversubscribed 0$' "$tmp/stall.hist"; then
        [ "$shown" -gt 0 ] || fail "$runner: SB's weak state not on the stalled first instance in 5 tries"
    else
        echo "SKIP: $runner stalled run on one CPU: SB's weak state needs two"
    fi
done
for bad in '1:0' '1:0,1;' 'x:0,1' '1:0,2' '1:0;2:1'; do
    "$tmp/sb/SB" -s 10 -r 1 --until-covered '0,0;0,1;1,0;1,1' --schedules "$bad" > /dev/null 2>&1
    st=$?
    [ "$st" -eq 2 ] || fail "SB runner --schedules '$bad': exit $st, want 2"
done

# a switch runs a thread in the middle of another on one CPU: MP's state
# where P1 reads y=0 and then x=1 needs P1 whole between P0's stores, which
# a lane switching from P0 to P1 before P0's second access gives on its
# first instance, on one CPU (a free run needs a preemption right there,
# and a lane without the switch never shows it); for both runners, the x86
# one's switch being a call from the test's asm
for target in x86 c11; do
    src="$ex/x86/MP.litmus"
    [ "$target" = c11 ] && src="$ex/c/MP+rlx.litmus"
    mkdir -p "$tmp/mp-$target"
    "$L" emit --target "$target" "$src" -o "$tmp/mp-$target/" || fail "emit MP for $target"
    cc -O2 -std=c11 -pthread -o "$tmp/mp-$target/MP" "$tmp/mp-$target"/*.c || fail "cc MP for $target"
    "$tmp/mp-$target/MP" --cpus 1 -s 1000 -r 1 --until-covered '0,1' --schedules '0:0.0.0s1,0.0.1' \
        --max-iterations 1M > "$tmp/mp-$target/hist" || fail "MP ($target) with a switch: exit $?"
    grep -q '^covered 1$' "$tmp/mp-$target/hist" || fail "MP ($target) with a switch: not covered"
    at=$(sed -n 's/^first \([0-9]*\) 0 1$/\1/p' "$tmp/mp-$target/hist")
    [ -n "$at" ] && [ "$at" -le 16 ] ||
        fail "MP ($target) with a switch: y=0 then x=1 first seen at '$at', want within the first laned run"
done
# an interleaving does the same with no lanes: P0's store of x, P1
# whole, P0's store of y, one CPU switching between them, on the first
# instance of its run, the run's first iteration (a round makes no free
# run while every state left has an interleaving)
for target in x86 c11; do
    "$tmp/mp-$target/MP" --cpus 1 -s 1000 -r 1 --until-covered '0,1' --schedules '0:=0.1,1,0' \
        --max-iterations 1M > "$tmp/mp-$target/ihist" || fail "MP ($target) interleaved: exit $?"
    grep -q '^config interleavings 1$' "$tmp/mp-$target/ihist" && grep -q '^config interleaved [1-9]' "$tmp/mp-$target/ihist" ||
        fail "MP ($target) interleaved: $(grep config "$tmp/mp-$target/ihist")"
    at=$(sed -n 's/^first \([0-9]*\) 0 1$/\1/p' "$tmp/mp-$target/ihist")
    [ "$at" = 1 ] ||
        fail "MP ($target) interleaved: y=0 then x=1 first seen at '$at', want 1"
done
for bad in '0:0.0.0s1,1' '0:0.0.0s0,0.0.1' '0:0.0.0s7,0.0.1' '0:0.0.0,0.0.1s1' '0:0.0.0s1,0.0.1s1' '0:0.0.0s1,0.1.0' \
    '0:=' '0:=2' '0:=0.0,1' '0:=0.7,1' '0:=0.2,0.1' '0:=0,0' '0:=0.1,' '0:=0.1,1,0;'; do
    "$tmp/mp-x86/MP" -s 10 -r 1 --until-covered '0,1' --schedules "$bad" > /dev/null 2>&1
    st=$?
    [ "$st" -eq 2 ] || fail "MP runner --schedules '$bad': exit $st, want 2"
done

# rc11 allows MP+rlx's weak state; its x86 compilation cannot show it, so
# the c11 runner's coverage also counts the 3 states x86 can show, and
# --until-covered stops once those are seen, with the weak one unseen
"$L" run --target c11 -s 1000 -r 1 --until-covered --max-iterations 20M "$ex/c/MP+rlx.litmus" > "$tmp/mp.log" 2> "$tmp/err"
st=$?
[ "$st" -eq 0 ] || fail "MP+rlx --until-covered: exit $st: $(cat "$tmp/err")"
grep -q '^Coverage MP+rlx 3/4 first=[0-9]*,[0-9]*,-,[0-9]* x86=3/3 (covered after [0-9]* iterations)$' "$tmp/mp.log" ||
    fail "MP+rlx: $(grep '^Coverage' "$tmp/mp.log")"
grep -q '^Unseen MP+rlx 1:r0=1; 1:r1=0;' "$tmp/mp.log" || fail "MP+rlx: the weak state is not the unseen one"
check_coverage "$tmp/mp.log" MP+rlx 1000 ramp
"$L" run --json --target c11 -s 1000 -r 1 "$ex/c/MP+rlx.litmus" > "$tmp/mp.json" || fail "run --json MP+rlx"
grep -q '"x86_reachable": *3, *"x86_seen": *[0-3]' "$tmp/mp.json" || fail "MP+rlx JSON: $(grep -o '"coverage": *{[^}]*}' "$tmp/mp.json")"
# a Java test is planned on the runner's own model (jam21's executions
# order plain writes by no coherence, and every interleaving came out as
# the threads in order): IRIW+plain's 15 x86 states, all sequentially
# consistent, are its 15 interleavings, one iteration each
"$L" run --until-covered --max-iterations 1M "$ex/java/IRIW+plain.litmus" > "$tmp/iriwj.log" 2> "$tmp/err" ||
    fail "IRIW+plain --until-covered: $(cat "$tmp/err")"
grep -q '^Coverage IRIW+plain 15/16 first=.* x86=15/15 (covered after 15 iterations)$' "$tmp/iriwj.log" ||
    fail "IRIW+plain: $(grep '^Coverage' "$tmp/iriwj.log")"
check_coverage "$tmp/iriwj.log" IRIW+plain 1000 ramp
# the x86 runner on a C test runs its compilation through the scheme: it
# too counts and aims at what that compilation can show, so MP+rlx stops
# once its 3 such states are seen instead of running to the bound
"$L" run --target x86 --until-covered --max-iterations 20M "$ex/c/MP+rlx.litmus" > "$tmp/mpx.log" 2> "$tmp/err" ||
    fail "MP+rlx --target x86 --until-covered: $(cat "$tmp/err")"
grep -q '^Coverage MP+rlx 3/4 first=[0-9]*,[0-9]*,-,[0-9]* x86=3/3 (covered after [0-9]* iterations)$' "$tmp/mpx.log" ||
    fail "MP+rlx --target x86: $(grep '^Coverage' "$tmp/mpx.log")"
# ... and plans its schedules on that compilation, whose accesses are the
# ones the x86 runner runs: RWC with a fence and an acquire read, whose
# fourth state the source's accesses never led to (not covered in 1M)
rwc="$here/../corpus/c11/fence/RWC+fencearrlxrlx+porlxrlx+Rlx.litmus"
"$L" run --target x86 --until-covered --max-iterations 1M "$rwc" > "$tmp/rwcx.log" 2> "$tmp/err" ||
    fail "RWC+fencearrlxrlx+porlxrlx+Rlx --target x86 --until-covered: $(cat "$tmp/err")"
grep -q '^Coverage RWC+fencearrlxrlx+porlxrlx+Rlx 8/8 first=.* x86=8/8 (covered after [0-9]* iterations)$' "$tmp/rwcx.log" ||
    fail "RWC+fencearrlxrlx+porlxrlx+Rlx --target x86: $(grep '^Coverage' "$tmp/rwcx.log")"
# a bound too small for every state: not covered, and stopped right at it
"$L" run -s 1000 -r 1 --until-covered --max-iterations 3 "$ex/x86/SB.litmus" > "$tmp/few.log" 2> "$tmp/err" ||
    fail "SB --max-iterations 3: $(cat "$tmp/err")"
grep -q '^Coverage SB [1-3]/4 first=.* (not covered within 3 iterations)$' "$tmp/few.log" ||
    fail "SB within 3: $(grep '^Coverage' "$tmp/few.log")"
grep -q '^Config SB .* iterations=3$' "$tmp/few.log" || fail "SB did not stop at --max-iterations 3"
# the x86 target runs the x86 program itself: no second set
"$L" run -s 1000 -r 1 "$ex/x86/SB.litmus" | grep '^Coverage' | grep -q 'x86=' && fail "x86 target with an x86= count"

# JSON carries the same
"$L" run --json -s 1000 -r 2 "$ex/x86/SB.litmus" > "$tmp/sb.json" || fail "run --json"
grep -q '"coverage": *{"allowed": *4, *"seen": *[0-9]' "$tmp/sb.json" || fail "no coverage block in JSON: $(head -c 600 "$tmp/sb.json")"

for bad in "--max-iterations 10k" "--until-covered --max-iterations 0" "--until-covered --max-iterations x"; do
    # shellcheck disable=SC2086
    "$L" run $bad "$ex/x86/SB.litmus" > /dev/null 2> "$tmp/err"
    st=$?
    [ "$st" -eq 2 ] || fail "run $bad: exit $st, want 2"
    grep -q '^litmusc run: error: .*max-iterations' "$tmp/err" || fail "run $bad: $(cat "$tmp/err")"
done
[ "$fails" -eq 0 ] || exit 1
echo "run_coverage: all checks passed"
