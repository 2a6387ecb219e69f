#!/bin/sh
# `litmusc parse` on the command line: --help, the canonical text of a
# small test (exact), several files at once with one bad among them,
# --hash, the `--` name, and herd7 7.57's Hash= on known tests.
set -u
L=${LITMUSC:?LITMUSC must name the program under test}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

"$L" parse --help > "$tmp/help" 2>&1 || bad "--help exits non-zero"
grep -q '^usage: litmusc parse' "$tmp/help" || bad "--help does not print the usage"

# messy but valid input -> exact canonical text
cat > "$tmp/sb.litmus" <<'LIT'
X86 SB (* a comment *)
"Fre PodWR Fre PodWR"
Cycle=Fre PodWR Fre PodWR
{ x=0; y=0; 0:EBX=x }
 P0          | P1          ;
 mov [x],1   | MOV [y],$1  ;
 MOV EAX,[y] | lock; add [x],$2 ;
locations [y;]
~exists 0:EAX=0 /\ (x=1 \/ y==2) => not 0:EBX<>x
LIT
cat > "$tmp/sb.want" <<'LIT'
X86 SB
"Fre PodWR Fre PodWR"
Cycle=Fre PodWR Fre PodWR
{ x=0; y=0; 0:EBX=x; }
 P0          | P1              ;
 MOV [x],$1  | MOV [y],$1      ;
 MOV EAX,[y] | LOCK ADD [x],$2 ;

locations [y;]
~exists (0:EAX=0 /\ ([x]=1 \/ [y]=2) => ~0:EBX!=x)
LIT
"$L" parse "$tmp/sb.litmus" > "$tmp/sb.out" 2> "$tmp/sb.err" || bad "sb.litmus rejected: $(cat "$tmp/sb.err")"
cmp -s "$tmp/sb.out" "$tmp/sb.want" || { bad "canonical text differs"; diff "$tmp/sb.want" "$tmp/sb.out"; }

cat > "$tmp/mp.litmus" <<'LIT'
C MP
{ [x]=0; [y]=0; }
P0 (atomic_int* x, atomic_int* y) { atomic_store_explicit(x, 1, memory_order_relaxed);
  atomic_store(y, 1); }
P1 (atomic_int* x, atomic_int* y) { int r0 = atomic_load_explicit(y, memory_order_acquire);
  int r1 = -1; if (r0 == 1) r1 = atomic_load_explicit(x,memory_order_relaxed); }
exists (1:r0=1 /\ 1:r1=0)
LIT
cat > "$tmp/mp.want" <<'LIT'
C MP
{ x=0; y=0; }
P0(atomic_int* x, atomic_int* y) {
  atomic_store_explicit(x, 1, memory_order_relaxed);
  atomic_store(y, 1);
}

P1(atomic_int* x, atomic_int* y) {
  int r0 = atomic_load_explicit(y, memory_order_acquire);
  int r1 = -1;
  if (r0 == 1)
    r1 = atomic_load_explicit(x, memory_order_relaxed);
}

exists (1:r0=1 /\ 1:r1=0)
LIT
"$L" parse "$tmp/mp.litmus" > "$tmp/mp.out" 2>&1 || bad "mp.litmus rejected: $(cat "$tmp/mp.out")"
cmp -s "$tmp/mp.out" "$tmp/mp.want" || { bad "C canonical text differs"; diff "$tmp/mp.want" "$tmp/mp.out"; }

# several files: the good ones print (separated by an empty line), the
# bad one gets its one error line, and the status is 2
printf 'X86 broken\n{ }\n P0 ;\n FROB [x] ;\nexists (x=1)\n' > "$tmp/broken.litmus"
(cd "$tmp" && "$L" parse sb.litmus broken.litmus mp.litmus > both.out 2> both.err)
[ $? -eq 2 ] || bad "a bad file among good ones should exit 2"
[ "$(grep -c '' "$tmp/both.err")" -eq 1 ] || bad "expected one error line: $(cat "$tmp/both.err")"
grep -q '^litmusc parse: broken.litmus:4:2: error: unknown instruction' "$tmp/both.err" || bad "wrong error: $(cat "$tmp/both.err")"
{ cat "$tmp/sb.want"; echo; cat "$tmp/mp.want"; } > "$tmp/both.want"
cmp -s "$tmp/both.out" "$tmp/both.want" || bad "two good files print differently together"

# --hash, with `--` meaning the file's base name, and herd7's Hash= of known tests
printf 'X86 --\n{ }\n P0          | P1          ;\n MOV [x],$1  | MOV [y],$1  ;\n MOV EAX,[y] | MOV EAX,[x] ;\nexists (0:EAX=0 /\\ 1:EAX=0)\n' > "$tmp/SBdash.litmus"
printf 'X86 SB\n{ x=0; y=0; }\n P0          | P1          ;\n MOV [x],$1  | MOV [y],$1  ;\n MOV EAX,[y] | MOV EAX,[x] ;\nexists (0:EAX=0 /\\ 1:EAX=0)\n' > "$tmp/SB0.litmus"
printf 'X86 SB\n{ x=0; y=0; }\n P0          | P1          ;\n MOV [x],$1  | MOV [y],$1  ;\n MOV EAX,[y] | MOV EAX,[x] ;\nlocations [x;]\nexists (0:EAX=0 /\\ 1:EAX=0)\n' > "$tmp/SBloc.litmus"
"$L" parse --hash "$tmp/SBdash.litmus" "$tmp/SB0.litmus" "$tmp/SBloc.litmus" > "$tmp/hash.out" 2>&1 || bad "--hash failed"
printf 'SBdash edd4722437d708675ed921e7607e77f0\nSB 7dbd6b8e6dd4abc2ef3d48b0376fb2e3\nSB c0e601af19a6cee501d1a63f7dfad5a3\n' > "$tmp/hash.want"
cmp -s "$tmp/hash.out" "$tmp/hash.want" || { bad "--hash output differs"; diff "$tmp/hash.want" "$tmp/hash.out"; }
[ $fail -eq 0 ] && echo "parse_cli: ok"
exit $fail
