#!/bin/sh
# `litmusc ir` on bad input: a precise file:line:col error on stderr, exit
# status 2 and nothing on stdout; and the options (--help, --check, --read).
# LITMUSC names the program under test.
set -u
: "${LITMUSC:?LITMUSC must name the litmusc program}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0
cd "$tmp" || exit 1

# expect_error WANT_STATUS WANT_STDERR ARGS...: stderr must contain the text.
expect_error() {
    want_status=$1
    want_err=$2
    shift 2
    "$LITMUSC" ir "$@" > out 2> err
    status=$?
    if [ "$status" -ne "$want_status" ]; then
        echo "FAIL: ir $*: exit status $status, wanted $want_status"
        cat err
        fail=1
    fi
    if ! grep -qF -- "$want_err" err; then
        echo "FAIL: ir $*: stderr lacks '$want_err':"
        cat err
        fail=1
    fi
    if [ -s out ]; then
        echo "FAIL: ir $*: wrote to stdout on error:"
        head -5 out
        fail=1
    fi
}

cat > loop.litmus <<'T'
X86 loop
{ x=0; }
 P0              ;
 L0: MOV EAX,[x] ;
 CMP EAX,0       ;
 JE L0           ;
exists (0:EAX=0)
T
expect_error 2 "loop.litmus:6:5: error: jump back to label L0: loops are not supported" loop.litmus

cat > order.litmus <<'T'
C order
{ [x]=0; }
P0 (atomic_int* x) {
  int r0 = atomic_load_explicit(x, memory_order_release);
}
exists (0:r0=0)
T
expect_error 2 "order.litmus:4:12: error: atomic_load_explicit takes no memory_order_release" order.litmus

cat > good.litmus <<'T'
X86 good
{ x=0; y=0; }
 P0          | P1          ;
 MOV [x],$1  | MOV [y],$1  ;
 MOV EAX,[y] | MOV EAX,[x] ;
exists (0:EAX=0 /\ 1:EAX=0)
T
# A good file before a bad one: still no output at all.
expect_error 2 "order.litmus:4:12: error:" good.litmus order.litmus
expect_error 2 "missing.litmus: error: cannot open" missing.litmus
expect_error 2 "unknown option '--frob'" --frob good.litmus
expect_error 2 "no input file"

# IR text errors: syntax (with position), then a verifier error.
printf 'test "T"\narch C\nthread 0 P0\n  b0:\n    %%0 = frob 1\n    ret\nend\ncond exists true\n' > syntax.ir
expect_error 2 "syntax.ir:5:10: error: unknown instruction 'frob'" --read syntax.ir
printf 'test "T"\narch C\nthread 0 P0\n  b0:\n    %%0 = add %%1, 1\n    ret\nend\ncond exists true\n' > undef.ir
expect_error 2 "undef.ir:5:5: error: invalid IR: thread 0: %1 is used but never defined" --read undef.ir
printf 'test "T"\narch C\nloc x int init 0\nthread 0 P0\n  b0:\n    jmp b1\n  b1:\n    %%0 = load.rlx &x\n    br %%0, b1, b2\n  b2:\n    ret\nend\ncond exists true\n' > loop.ir
expect_error 2 "jumps back to block 1" --read loop.ir

# --help goes to stdout with status 0.
if ! "$LITMUSC" ir --help > out 2> err || ! grep -q '^usage: litmusc ir' out; then
    echo "FAIL: ir --help"
    fail=1
fi
# --check prints nothing for a good file.
if ! "$LITMUSC" ir --check good.litmus > out 2> err || [ -s out ] || [ -s err ]; then
    echo "FAIL: ir --check good.litmus"
    cat out err
    fail=1
fi
# Two tests in one IR file read back identically, and the second one's
# errors are reported at its own line numbers.
"$LITMUSC" ir good.litmus good.litmus > two.ir
if ! "$LITMUSC" ir --read two.ir > again.ir || ! cmp -s two.ir again.ir; then
    echo "FAIL: two tests in one IR file do not round-trip"
    fail=1
fi
line=$(grep -n 'MOV EAX,\[x\]' two.ir | tail -1 | cut -d: -f1)
sed "${line}s/load.x86/load.frob/" two.ir > two-bad.ir
expect_error 2 "two-bad.ir:$line:15: error: expected an access mode" --read two-bad.ir
exit $fail
