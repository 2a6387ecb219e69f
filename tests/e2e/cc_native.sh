#!/bin/sh
# bench/cc_native.sh, small: SB+poscscs under gcc -O2, the C11 harness built
# with the same compiler and flags (run --cflags) shows only states the
# lifted test allows; the comparison flags a state outside the lifted set
# and not one that is inside once projected.
set -u
L=${LITMUSC:?LITMUSC must name the program under test}
here=$(cd "$(dirname "$0")" && pwd)
root="$here/../.."
command -v gcc >/dev/null || { echo "SKIP: needs gcc"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
cd "$root" || exit 1
TESTS=tests/corpus/c11/classic/SB+poscscs.litmus CCS=gcc LEVELS=-O2 S=2000 R=2 sh bench/cc_native.sh "$L" >"$tmp/out" 2>&1
rc=$?
[ $rc = 0 ] && grep -q "^SB+poscscs  *gcc  *-O2  *3  *[1-3]  *0 " "$tmp/out" &&
  grep -q "configurations 1, checked 1, refused by cc-check 0, states outside the lifted set 0" "$tmp/out" ||
  { echo "FAIL: SB+poscscs gcc -O2 (rc $rc)"; cat "$tmp/out"; fail=1; }
printf 'P0_r0=0;P1_r0=1;x=1;\nP0_r0=1;P1_r0=1;x=1;\n' >"$tmp/lifted"
printf 'P1_r0=1;\nP0_r0=0;P1_r0=0;\n' >"$tmp/seen"
[ "$(sh bench/cc_native.sh --compare "$tmp/lifted" "$tmp/seen")" = "P0_r0=0;P1_r0=0;" ] ||
  { echo "FAIL: --compare"; sh bench/cc_native.sh --compare "$tmp/lifted" "$tmp/seen"; fail=1; }
# run --cflags builds the harness with those flags, -std=c11 -pthread kept
"$L" run --target c11 --cc gcc --cflags "-O1 -fno-inline" -s 1000 -r 1 tests/corpus/c11/classic/SB+poscscs.litmus \
    >"$tmp/run" 2>&1
grep -q 'compiler="gcc -O1 -fno-inline -std=c11 -pthread' "$tmp/run" || { echo "FAIL: run --cflags"; cat "$tmp/run"; fail=1; }
exit $fail
