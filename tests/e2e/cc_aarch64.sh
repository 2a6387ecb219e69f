#!/bin/sh
# litmusc cc-check --target aarch64: C tests built by Debian's cross gcc and
# clang --target=aarch64-linux-gnu, lifted through LLVM's disassembler to
# AArch64 litmus tests.  seq_cst accesses keep their STLR/LDAR; an atomic
# RMW is an LDAXR/STLXR loop at armv8-a (cut: its retry goes to
# cc_unroll) and an LSE instruction at armv8.1-a; an address dependency is
# a register offset; a libgcc outline-atomics call is refused by name
# (exit 2).  A compiler that drops dmb and turns ldar into ldr
# (tests/cc/a64-broken-cc.sh) yields a bug on the tests it breaks and on
# no other (LB is left out: rc11 forbids its cycle, which Arm allows plain
# loads and stores, so every compiler's LB is a bug by rc11): litmusc's
# verdict where it reads AArch64 and has the aarch64 model, else herd7's
# (HERD7 and HERD_LIBDIR): each lifted test's states against the source's
# under rc11.  An address dependency into STLR or LDAR is an address
# computed with ADDs; -march=armv8.3-a lifts, and LDAPR (tests/cc/a64-rcpc-cc.sh)
# is caught where a seq_cst load needs LDAR; lock tests lift as a spin lock.
set -u
L=${LITMUSC:?LITMUSC must name the program under test}
here=$(cd "$(dirname "$0")" && pwd)
root="$here/../.."
command -v aarch64-linux-gnu-gcc >/dev/null && command -v clang >/dev/null ||
  { echo "SKIP: needs aarch64-linux-gnu-gcc and clang"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
c11="$root/tests/corpus/c11/classic"
"$L" cc-check --target aarch64 --target-model sc "$c11/SB+poscscs.litmus" >/dev/null 2>"$tmp/probe"
grep -q "built without LLVM" "$tmp/probe" && { echo "SKIP: litmusc was built without LLVM"; exit 77; }
fail=0
# litmusc's own verdicts need its AArch64 reader and aarch64 model; without them
# cc-check still lifts (the file is written) and says the test does not read back
tm=aarch64
"$L" models 2>/dev/null | grep -qw aarch64 || tm=sc
own=false
[ $tm = aarch64 ] && ! grep -q "does not read back" "$tmp/probe" && own=true
herd=false
[ -n "${HERD7:-}" ] && [ -n "${HERD_LIBDIR:-}" ] && herd=true
states() { HERDLIB="$HERD_LIBDIR" "$HERD7" "$@" 2>/dev/null | awk -f "$root/tests/cc/herd_states.awk" | sort -u; }
cc_a64() { "$L" cc-check --target aarch64 --target-model $tm "$@"; }

# seq_cst SB: STLR then LDAR, the frame and the address arithmetic gone
for cc in aarch64-linux-gnu-gcc clang; do
  for o in -O0 -O2; do
    cc_a64 --cc $cc --cflags "$o -march=armv8-a" --out "$tmp/sb" "$c11/SB+poscscs.litmus" >/dev/null 2>"$tmp/err"
    f=$(ls "$tmp/sb"/SB+poscscs.$cc.*.litmus 2>/dev/null)
    [ -s "$f" ] || { echo "FAIL: SB+poscscs $cc $o: no lifted file"; cat "$tmp/err"; fail=1; continue; }
    grep -q "^AArch64 SB+poscscs\$" "$f" || { echo "FAIL: $cc $o: header"; fail=1; }
    grep -q "STLR W[0-9]*,\[X[0-9]*\]" "$f" && grep -q "LDAR W[0-9]*,\[X[0-9]*\]" "$f" ||
      { echo "FAIL: $cc $o: no STLR/LDAR"; cat "$f"; fail=1; }
    ! grep -q "SP\|ADRP\|X29\|X30\|RET" "$f" || { echo "FAIL: $cc $o: frame or address arithmetic kept"; cat "$f"; fail=1; }
    grep -q "^ 0:X[0-9]*=x;" "$f" || grep -q " 0:X[0-9]*=x;" "$f" || { echo "FAIL: $cc $o: x's register not in the init"; fail=1; }
    rm -rf "$tmp/sb"
  done
done

# atomic RMWs: an exclusive loop at armv8-a (its retry cut), LSE at armv8.1-a
cat >"$tmp/RMW.litmus" <<'EOT'
C RMW
{}
P0 (atomic_int* x, atomic_int* y) {
  int r0 = atomic_fetch_add_explicit(x, 1, memory_order_acq_rel);
  int r1 = atomic_exchange_explicit(y, 2, memory_order_seq_cst);
}
P1 (atomic_int* x, atomic_int* y) {
  atomic_store_explicit(y, 1, memory_order_release);
  atomic_store_explicit(x, 1, memory_order_relaxed);
}
exists (0:r0=0 /\ 0:r1=1)
EOT
for cc in aarch64-linux-gnu-gcc clang; do
  cc_a64 --cc $cc --cflags "-O2 -march=armv8-a" --cflags "-O2 -march=armv8.1-a" --out "$tmp/rmw" "$tmp/RMW.litmus" \
      >/dev/null 2>"$tmp/err"
  f=$(ls "$tmp/rmw"/RMW.$cc.-O2_-march_armv8-a.litmus 2>/dev/null)
  [ -s "$f" ] && grep -q "LDAXR" "$f" && grep -q "STLXR" "$f" && grep -q "CBNZ W[0-9]*,L0_cut" "$f" &&
    grep -q "cc_unroll" "$f" || { echo "FAIL: RMW $cc armv8-a: no cut exclusive loop"; cat "$tmp/err" "$f"; fail=1; }
  f=$(ls "$tmp/rmw"/RMW.$cc.-O2_-march_armv8.1-a.litmus 2>/dev/null)
  [ -s "$f" ] && grep -q "LDADDAL" "$f" && grep -q "SWPAL" "$f" && ! grep -q "LDAXR\|cc_unroll" "$f" ||
    { echo "FAIL: RMW $cc armv8.1-a: no LSE"; cat "$tmp/err" "$f"; fail=1; }
  if $herd; then
    states -model rc11.cat "$tmp/RMW.litmus" >"$tmp/src"
    for f in "$tmp/rmw"/RMW.$cc.*.litmus; do
      states "$f" >"$tmp/got"
      [ -s "$tmp/got" ] && [ -z "$(comm -23 "$tmp/got" "$tmp/src")" ] ||
        { echo "FAIL: herd7 on $(basename "$f"): $(tr '\n' ' ' <"$tmp/got")"; fail=1; }
    done
  fi
done

# a refusal, named: libgcc's outline atomics (a call)
cc_a64 --cc aarch64-linux-gnu-gcc --cflags "-O2 -march=armv8-a -moutline-atomics" "$tmp/RMW.litmus" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 2 ] && grep -q "P0: cannot lift 'bl __aarch64_ldadd4_acq_rel' (a call)" "$tmp/err" ||
  { echo "FAIL: outline atomics not refused by name (rc $rc)"; cat "$tmp/err"; fail=1; }
# an address dependency (x + (r0 & 128)) is herd's register offset, the
# value in a spare register, at gcc -O0 (ADD X1,X0,X1) and -O2 (LSL #2)
for o in -O0 -O2; do
  rm -rf "$tmp/ad"
  cc_a64 --cc aarch64-linux-gnu-gcc --cflags "$o" --out "$tmp/ad" "$c11/MP+porlxrel+addrrlxrlx.litmus" >"$tmp/out" 2>"$tmp/err"
  f=$(ls "$tmp/ad"/*.litmus 2>/dev/null)
  [ -s "$f" ] && grep -q "LDR W[0-9]*,\[X[0-9]*,X[0-9]*" "$f" && ! grep -q ": bug " "$tmp/out" ||
    { echo "FAIL: address dependency at $o"; cat "$tmp/err" "$f"; fail=1; }
done
# an address dependency into an access herd takes as [Xn] alone (STLR, LDAR,
# the exclusives): its address computed with ADDs into a spare register
dep="$root/tests/corpus/c11/dep/WRW+2W+addrrlxrel+porlxrel+Rel.litmus"
for cc in aarch64-linux-gnu-gcc clang; do
  for o in -O0 -O2; do
    rm -rf "$tmp/ds"
    cc_a64 --cc $cc --cflags "$o -march=armv8-a" --out "$tmp/ds" "$dep" >"$tmp/out" 2>"$tmp/err"
    f=$(ls "$tmp/ds"/*.litmus 2>/dev/null)
    ok=false
    for n in $(grep -o "ADD X[0-9]*,X[0-9]*,X[0-9]*" "$f" 2>/dev/null | sed 's/ADD X\([0-9]*\),.*/\1/'); do
      grep -q "STLR W[0-9]*,\[X$n\]" "$f" && ok=true
    done
    $ok && ! grep -q ": bug " "$tmp/out" || { echo "FAIL: dependent STLR $cc $o"; cat "$tmp/err" "$f"; fail=1; }
  done
done
# ... and the dependency kept: LDR y then an acquire load of x + (r0 & 128),
# the LDAR ordered after the LDR only by it, so 1:r0=1 /\ 1:r1=0 goes
cat >"$tmp/MPdep.litmus" <<'EOT'
C MP+rel+addracq
{}
P0 (atomic_int* x, atomic_int* y) {
  atomic_store_explicit(x, 1, memory_order_relaxed);
  atomic_store_explicit(y, 1, memory_order_release);
}
P1 (atomic_int* x, atomic_int* y) {
  int r0 = atomic_load_explicit(y, memory_order_relaxed);
  int r1 = atomic_load_explicit(x + (r0 & 128), memory_order_acquire);
}
exists (1:r0=1 /\ 1:r1=0)
EOT
verdict() {  # the verdict of lifted file $1 from cc-check output $2: litmusc's, else herd7's, else ""
  if $own; then
    sed -n 's/^cc-check .*: \(same\|stronger\|bug\) (.*/\1/p' "$2" | head -1
  elif $herd; then
    states -model "$root/model/cat/rc11-lb.cat" "$3" >"$tmp/src"
    states "$1" >"$tmp/got"
    if [ -n "$(comm -23 "$tmp/got" "$tmp/src")" ]; then echo bug
    elif cmp -s "$tmp/got" "$tmp/src"; then echo same
    else echo stronger; fi
  fi
}
for cc in aarch64-linux-gnu-gcc clang; do
  rm -rf "$tmp/md"
  cc_a64 --cc $cc --cflags "-O2 -march=armv8-a" --out "$tmp/md" "$tmp/MPdep.litmus" >"$tmp/out" 2>"$tmp/err"
  f=$(ls "$tmp/md"/*.litmus 2>/dev/null)
  [ -s "$f" ] && grep -q "LDAR W[0-9]*,\[X[0-9]*\]" "$f" || { echo "FAIL: dependent LDAR $cc"; cat "$tmp/err" "$f"; fail=1; continue; }
  v=$(verdict "$f" "$tmp/out" "$tmp/MPdep.litmus")
  [ -z "$v" ] || [ "$v" = stronger ] || { echo "FAIL: dependent LDAR $cc: $v, expected stronger"; cat "$f"; fail=1; }
done

# -march=armv8.3-a (RCpc): gcc 12 and clang 14 still give LDAR, and lift;
# a compiler that gives LDAPR (tests/cc/a64-rcpc-cc.sh) is right for an
# acquire load, wrong for a seq_cst one (SB: STLR then LDAPR may reorder)
rcpc="$root/tests/cc/a64-rcpc-cc.sh"
for t in "$root/examples/c/MP+rel+acq.litmus" "$c11/SB+poscscs.litmus"; do
  for cc in aarch64-linux-gnu-gcc clang "$rcpc"; do
    want=no
    case $cc/$t in "$rcpc"/*SB+*) want=bug ;; esac
    rm -rf "$tmp/r"
    cc_a64 --cc "$cc" --cflags "-O2 -march=armv8.3-a" --out "$tmp/r" "$t" >"$tmp/out" 2>"$tmp/err"
    f=$(ls "$tmp/r"/*.litmus 2>/dev/null)
    [ -s "$f" ] || { echo "FAIL: armv8.3-a $(basename "$cc") $(basename "$t"): no lifted file"; cat "$tmp/err"; fail=1; continue; }
    [ "$cc" != "$rcpc" ] || grep -q "LDAPR W[0-9]*,\[X[0-9]*\]" "$f" || { echo "FAIL: no LDAPR"; cat "$f"; fail=1; }
    v=$(verdict "$f" "$tmp/out" "$t")
    [ "$v" = bug ] || [ -z "$v" ] || v=no
    [ -z "$v" ] || [ "$v" = "$want" ] ||
      { echo "FAIL: armv8.3-a $(basename "$cc") $(basename "$t"): $v, expected $want"; cat "$f"; fail=1; }
  done
done

# lock tests: mtx_lock and spin_lock as an exchange spin lock, its wait cut
for t in lock-counter DCL; do
  rm -rf "$tmp/lk"
  cc_a64 --cc aarch64-linux-gnu-gcc --cflags "-O2 -march=armv8.1-a" --out "$tmp/lk" "$root/examples/locks/$t.litmus" \
      >"$tmp/out" 2>"$tmp/err"
  f=$(ls "$tmp/lk"/*.litmus 2>/dev/null)
  [ -s "$f" ] && grep -q "SWPA W[0-9]*,W[0-9]*,\[X[0-9]*\]" "$f" && grep -q "STLR WZR" "$f" ||
    { echo "FAIL: lock test $t: no SWPA/STLR lock"; cat "$tmp/err" "$f"; fail=1; continue; }
  v=$(verdict "$f" "$tmp/out" "$root/examples/locks/$t.litmus")
  $own || v=""         # herd7 has no spin_lock in C
  [ -z "$v" ] || [ "$v" = same ] || { echo "FAIL: lock test $t: $v, expected same"; cat "$tmp/out" "$f"; fail=1; }
done

# the broken compiler: a bug where it drops an ordering the test needs, none elsewhere
broken="$root/tests/cc/a64-broken-cc.sh"
for t in SB+poscscs SB+fencescrlxrlxs MP+porlxrel+poacqrlx 2+2W+porelrels SB+porlxrlxs; do
  case $t in 2+2W*|SB+porlx*) want=no ;; *) want=bug ;; esac
  for cc in "$broken" aarch64-linux-gnu-gcc; do
    [ "$cc" = "$broken" ] || want=no
    rm -rf "$tmp/b"
    cc_a64 --cc "$cc" --cflags "-O2 -march=armv8-a" --out "$tmp/b" "$c11/$t.litmus" >"$tmp/out" 2>"$tmp/err"
    f=$(ls "$tmp/b"/$t.*.litmus 2>/dev/null)
    [ -s "$f" ] || { echo "FAIL: $t $(basename "$cc"): no lifted file"; cat "$tmp/err"; fail=1; continue; }
    got=""
    if $own; then
      grep -q ": bug " "$tmp/out" && got=bug || got=no
    elif $herd; then
      states -model rc11.cat "$c11/$t.litmus" >"$tmp/src"
      states "$f" >"$tmp/got"
      [ -s "$tmp/got" ] || { echo "FAIL: herd7 reads no states from $(basename "$f")"; fail=1; continue; }
      [ -n "$(comm -23 "$tmp/got" "$tmp/src")" ] && got=bug || got=no
    fi
    [ -z "$got" ] || [ "$got" = "$want" ] || { echo "FAIL: $t $(basename "$cc"): $got, expected $want"; cat "$f"; fail=1; }
  done
done
$own || $herd || echo "note: verdicts unchecked (no AArch64 reader or aarch64 model in litmusc, no HERD7)"
exit $fail
