#!/bin/sh
# Multi-thread tests under --until-covered: IRIW and 4.SB (four threads)
# must show every allowed state within their budget whatever the CPUs:
# where a state's threads cannot all be in flight at once, the directed
# schedules fold them onto lanes (threads run one after the other on one
# CPU, a fence between), which two CPUs hold.  6.SB (six, generated: 64
# schedules, which the rounds must all try within the budget) must show
# every state its schedules order as groups; of the folded ones, the
# all-ones state needs one thread to hold its load back across the other
# five run one after another on the other CPU, which a gap of the right
# length gives in about half the runs of 1M iterations on two CPUs, so a
# miss there says SKIP.
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
    */6.SB.litmus) budget="--max-iterations 1M" strict=0 ;;
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
    folded=$(sed -n 's/^Config .* folded=\([0-9]*\).*/\1/p' "$tmp/log")
    [ -n "$sched" ] || { fail "$name: no directed schedules: $(grep '^Config' "$tmp/log")"; continue; }
    [ -n "$folded" ] || { fail "$name: no schedule folds a group onto lanes: $(grep '^Config' "$tmp/log")"; continue; }
    if [ "$strict" = 1 ]; then
        [ "$seen" = "$all" ] || fail "$name: $line (with $cpus CPUs for $threads threads)"
    else
        [ "$seen" -ge $((sched - folded)) ] ||
            fail "$name: $seen states seen, fewer than the $((sched - folded)) the schedules order as groups: $line"
        [ "$seen" = "$all" ] ||
            echo "SKIP: $name: $((all - seen)) of $all states not seen within the budget, of the $folded folded onto lanes ($cpus CPUs for $threads threads): $line"
    fi
done
[ "$fails" -eq 0 ] || exit 1
echo "run_coverage_multi: ok"
