#!/bin/sh
# cc-check on locations whose names the translation unit cannot hold as
# globals (its own P<n> functions and P<n>_<reg> globals, C keywords, names
# of <stdatomic.h>): refused as bad input at the name, file:line:col, exit
# 2, before any compiler complains about a temporary file.
set -u
L=${LITMUSC:?LITMUSC must name the program under test}
command -v cc >/dev/null 2>&1 || { echo "SKIP: no cc"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
# mk NAME: SB with its location x named NAME
mk() {
    cat > "$tmp/$1.litmus" <<EOT
C N_$1

{ $1 = 0; y = 0; }

P0 (atomic_int* $1, atomic_int* y) {
  atomic_store_explicit($1, 1, memory_order_relaxed);
  int r0 = atomic_load_explicit(y, memory_order_relaxed);
}

P1 (atomic_int* $1, atomic_int* y) {
  atomic_store_explicit(y, 1, memory_order_relaxed);
  int r0 = atomic_load_explicit($1, memory_order_relaxed);
}

exists (0:r0=0 /\\ 1:r0=0)
EOT
}
for n in P0_r0 P0 P12_r3 asm typeof memory_order_relaxed atomic_flag INT32_MAX __x; do
    mk "$n"
    "$L" cc-check --cc cc "$tmp/$n.litmus" > "$tmp/out" 2> "$tmp/err"
    rc=$?
    [ "$rc" -eq 2 ] || fail "$n: exit $rc, want 2"
    grep -q "^$tmp/$n.litmus:3:3: error: cc-check: location '$n' cannot be a global" "$tmp/err" ||
        fail "$n: not refused at the name: $(head -3 "$tmp/err")"
    grep -q "litmusc-cc-\|t\.c:" "$tmp/err" && fail "$n: a compiler's message on the temporary file: $(head -2 "$tmp/err")"
done
# names near those stay usable
for n in P PX P0x intx INTERVAL_MAXX _x; do
    mk "$n"
    "$L" cc-check --cc cc "$tmp/$n.litmus" > "$tmp/out" 2> "$tmp/err" || fail "$n: exit $?: $(head -3 "$tmp/err")"
done
[ "$fails" -eq 0 ] || { echo "cc_check_names: $fails failure(s)"; exit 1; }
echo "cc_check_names: names the translation unit cannot hold are refused at file:line:col"
