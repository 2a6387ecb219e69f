#!/bin/sh
# Every file cc-check writes for the tests of tests/e2e/cc_check.sh, SB and MP
# with a fence and an address dependency (and a
# test whose code has comparisons, setcc, a branch and a subtraction),
# under gcc and clang at -O0 -O2 -Os (bench/cc_herd.sh takes every C
# test at -O0 -O1 -O2 -O3 -Os), is within herd7 7.57's
# X86_64 grammar (tests/cc/herd_x86_64.awk, drawn from herdtools7 7.57's
# lexer and parser: doc/x86_64-dialect.md) unless its header names what is
# not, and litmusc reads each file back with the states cc-check counted.
set -u
L=${LITMUSC:?LITMUSC must name the program under test}
here=$(cd "$(dirname "$0")" && pwd)
root="$here/../.."
command -v gcc >/dev/null && command -v clang >/dev/null || { echo "SKIP: needs gcc and clang"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
c11="$root/tests/corpus/c11/classic"
cat >"$tmp/CMP.litmus" <<'EOF'
C CMP
{}
P0 (atomic_int* x, atomic_int* y) {
  int r0 = atomic_load_explicit(x, memory_order_relaxed);
  int r1 = atomic_load_explicit(y, memory_order_relaxed);
  int r2 = (r0 == 1);
  int r3 = 7;
  if (r1 != 0) { r3 = 5; }
  int r4 = r0 < r1;
  int r5 = r1 - r0;
}
P1 (atomic_int* x, atomic_int* y) {
  atomic_store_explicit(y, 2, memory_order_relaxed);
  atomic_store_explicit(x, 1, memory_order_release);
}
exists (0:r0=1 /\ 0:r1=0)
EOF
tests="$c11/SB+poscscs.litmus $c11/SB+fencescrlxrlxs.litmus $c11/MP+porlxrel+addrrlxrlx.litmus $c11/MP+porlxrel+poacqrlx.litmus $c11/LB+porlxrlxs.litmus $c11/IRIW+poscscs+ScSc.litmus
  $c11/2+2W+porelrels.litmus $c11/MP+porlxrel+ctrlrlxrlx.litmus $root/tests/corpus/c11/plaindep/MP+po+ctrl.litmus
  $root/tests/corpus/c11/plaindep/LB+ctrls.litmus
  $root/tests/cc/FO.litmus $tmp/CMP.litmus"
mkdir "$tmp/out"
for t in $tests; do
  "$L" cc-check --cc gcc --cc clang --cflags -O0 --cflags -O2 --cflags -Os \
      --out "$tmp/out" "$t" >>"$tmp/verdicts" 2>>"$tmp/err"
done
n=0 herd=0 wide=0
for f in "$tmp/out"/*.litmus; do
  n=$((n + 1))
  name=$(basename "$f" .litmus)
  if grep -q "^(\* .*; herd7 7.57 reads it as written: herd7 FILE \*)$" "$f"; then
    herd=$((herd + 1))
    awk -f "$root/tests/cc/herd_x86_64.awk" "$f" >"$tmp/why" || { echo "FAIL: $name: outside herd7 7.57's grammar"; cat "$tmp/why"; fail=1; }
  elif grep -q "^(\* .*; not in herd7 7.57's X86_64 grammar: P[0-9]*: '.*': .* \*)$" "$f"; then
    wide=$((wide + 1))
    # the corpus tests here all lift into herd's grammar; FO's clang -O0
    # testb and CMP's subtraction before a flag test have no herd form
    case $name in FO.*|CMP.*) ;; *) echo "FAIL: $name: outside herd's grammar: $(sed -n 3p "$f")"; fail=1 ;; esac
    grep -q "note: the lifted test is outside herd7 7.57's X86_64" "$tmp/err" || { echo "FAIL: $name: no note"; fail=1; }
  else
    echo "FAIL: $name: header names neither herd's command nor what herd lacks"; fail=1
  fi
  # litmusc reads the file back with as many states as cc-check counted
  t=${name%%.*}
  rest=${name#*.}
  cc=${rest%%.*}
  o=${rest#*.}
  want=$(grep "^cc-check $t $cc $o: " "$tmp/verdicts" | sed -n 's/.*(\([0-9]*\) states compiled.*/\1/p')
  got=$("$L" model --model x86tso "$f" 2>&1 | sed -n 's/^States //p')
  [ -n "$want" ] && [ "$want" = "$got" ] || { echo "FAIL: $name: $got states read back, cc-check counted '$want'"; fail=1; }
done
# the catalogue's own forms, and what the lifter wrote before herd's, are told apart
printf 'X86_64 T\n"compiled from C"\n(* x *)\n{\n  int32_t x=0;\n}\n P0 | P1 ;\n movl $1, x(%%rip) | ;\n movzbl (x), %%eax | ;\n sete %%al | ;\n lock orl $1, (x) | ;\n jl L1 | jmp L1 ;\n ret | ;\n L1: | L1: ;\nexists (x=1)\n' >"$tmp/bad.litmus"
awk -f "$root/tests/cc/herd_x86_64.awk" "$tmp/bad.litmus" >"$tmp/why" && { echo "FAIL: checker accepts x(%rip)"; fail=1; }
[ "$(wc -l <"$tmp/why")" = 7 ] || { echo "FAIL: checker: 7 problems expected (one a label defined twice)"; cat "$tmp/why"; fail=1; }
[ "$n" -ge 60 ] && [ "$herd" -ge 54 ] || { echo "FAIL: $n files, $herd in herd's grammar"; fail=1; }
echo "cc_herd: $n lifted files, $herd in herd7 7.57's grammar, $wide naming what it lacks"
exit $fail
