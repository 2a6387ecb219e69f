#!/bin/sh
# Multi-thread tests under --until-covered: IRIW and 4.SB (four threads),
# and 6.SB (six, generated: 62 schedules, which the rounds of the default
# -s must all try within 100k iterations; one schedule every other run of
# doubling size reached some 40 there; at that budget only the scheduled
# states are asked for, whatever the CPUs).
# With as many CPUs as threads every allowed state must show within the
# budget.  With fewer, a state whose threads must all interleave cannot
# (the machine cannot hold them in flight at once), so the test checks what
# the directed schedules promise: every state they order is seen (as many
# states as `Config ... schedules=K`), and says SKIP for the rest.
set -u
here=$(cd "$(dirname "$0")" && pwd)
L=${LITMUSC:?LITMUSC must name the program under test}
. "$here/../corpora.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LITMUSC_CACHE="$tmp/cache"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
cpus=$(nproc 2>/dev/null || echo 1)
"$L" gen --arch X86 --name 6.SB -o "$tmp/6.SB.litmus" PodWR Fre PodWR Fre PodWR Fre PodWR Fre PodWR Fre PodWR Fre ||
    fail "gen 6.SB"
for f in "$here/../../examples/x86/IRIW.litmus" "$corpora_root/tests/corpus/x86/classic/4.SB.litmus" "$tmp/6.SB.litmus"; do
    [ -f "$f" ] || { fail "missing $f"; continue; }
    case $f in
    */6.SB.litmus) budget="--max-iterations 100k" strict=0 ;;
    *) budget="-s 1000 --max-iterations 4M" strict=1 ;;
    esac
    # shellcheck disable=SC2086
    "$L" run -r 1 --until-covered $budget "$f" > "$tmp/log" 2> "$tmp/err" ||
        { fail "run $f: $(cat "$tmp/err")"; continue; }
    line=$(grep '^Coverage ' "$tmp/log")
    name=$(echo "$line" | awk '{ print $2 }')
    seen=$(echo "$line" | awk '{ split($3, a, "/"); print a[1] }')
    all=$(echo "$line" | awk '{ split($3, a, "/"); print a[2] }')
    threads=$(sed -n 's/^Config .* threads=\([0-9]*\).*/\1/p' "$tmp/log")
    sched=$(sed -n 's/^Config .* schedules=\([0-9]*\) directed.*/\1/p' "$tmp/log")
    [ -n "$sched" ] || { fail "$name: no directed schedules: $(grep '^Config' "$tmp/log")"; continue; }
    if [ "$cpus" -ge "$threads" ] && [ "$strict" = 1 ]; then
        [ "$seen" = "$all" ] || fail "$name: $line (with $cpus CPUs for $threads threads)"
    else
        [ "$seen" -ge "$sched" ] || fail "$name: $seen states seen, fewer than the $sched directed schedules reach: $line"
        [ "$seen" = "$all" ] || [ "$cpus" -ge "$threads" ] ||
            echo "SKIP: $name: $((all - seen)) of $all states need all $threads threads in flight at once; $cpus CPUs here (the $sched ordered by schedules were all seen)"
    fi
done
[ "$fails" -eq 0 ] || exit 1
echo "run_coverage_multi: ok"
