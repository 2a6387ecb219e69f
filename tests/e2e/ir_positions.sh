#!/bin/sh
# IR texts the verifier (or the lock check) rejects: each complaint points
# at its place in the text, file:line:col, exit 2, nothing on stdout: the
# instruction, else the block's label, the location, the condition (or
# filter, `locations`), else the thread's line.
set -u
L=${LITMUSC:?LITMUSC must name the program under test}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$tmp" || exit 1
fails=0
n=0
# check NAME WANT: `ir --read NAME.ir` (its text on stdin) fails with WANT,
# a prefix of its first line on stderr
check() {
    n=$((n + 1))
    cat > "$1.ir"
    "$L" ir --read "$1.ir" > out 2> err
    st=$?
    [ "$st" -eq 2 ] || { echo "FAIL: $1: exit $st, want 2"; fails=$((fails + 1)); }
    [ -s out ] && { echo "FAIL: $1: output on stdout"; fails=$((fails + 1)); }
    case $(head -1 err) in
    "litmusc ir: $1.ir:$2"*) ;;
    *) echo "FAIL: $1: want 'litmusc ir: $1.ir:$2...', got: $(head -1 err)"; fails=$((fails + 1)) ;;
    esac
}
check badfence '7:5: error: invalid IR: thread 0: fence mfence is not a C fence' <<'IR'
test "T"
arch C
loc x int init 0
loc m int init 0
thread 0 P0
  b0:
    fence.mfence
    ret
end
cond exists true
IR
check badmode '7:5: error: invalid IR: thread 0: access mode ' <<'IR'
test "T"
arch C
loc x int init 0
loc m int init 0
thread 0 P0
  b0:
    %0 = load.x86 &x
    ret
end
cond exists true
IR
check casmode '7:10: error: unknown instruction ' <<'IR'
test "T"
arch C
loc x int init 0
loc m int init 0
thread 0 P0
  b0:
    %0 = cas.rlx &x, 0, 1 fail.sc
    ret
end
cond exists true
IR
check cmpaddr '8:5: error: invalid IR: thread 0: load address %0 is the result of a comparison, not an address' <<'IR'
test "T"
arch C
loc x int init 0
loc m int init 0
thread 0 P0
  b0:
    %0 = eq 1, 1
    %1 = load.rlx %0
    ret
end
cond exists true
IR
check condmutex '7:5: error: the condition observes mutex m, which is not data (it is taken here)' <<'IR'
test "T"
arch C
loc x int init 0
loc m int init 0
thread 0 P0
  b0:
    lock.mtx &m
    unlock.mtx &m
    ret
end
cond exists [m]=0
IR
check condreg '9:1: error: invalid IR: the condition names register 0:r9, which thread 0 does not have' <<'IR'
test "T"
arch C
loc x int init 0
loc m int init 0
thread 0 P0
  b0:
    ret
end
cond exists 0:r9=0
IR
check condthread '9:1: error: invalid IR: the condition names thread 3, which does not exist' <<'IR'
test "T"
arch C
loc x int init 0
loc m int init 0
thread 0 P0
  b0:
    ret
end
cond exists 3:r0=0
IR
check cutbound '7:5: error: invalid IR: thread 0: cut needs its unrolling bound, a number of at least 1' <<'IR'
test "T"
arch C
loc x int init 0
loc m int init 0
thread 0 P0
  b0:
    cut 0
end
cond exists true
IR
check deftwice '8:5: error: invalid IR: thread 0: %0 is defined twice' <<'IR'
test "T"
arch C
loc x int init 0
loc m int init 0
thread 0 P0
  b0:
    %0 = load.rlx &x
    %0 = load.rlx &x
    ret
end
cond exists true
IR
check endflag '3:5: error: invalid IR: location x flags the end of thread 4, which the test does not have' <<'IR'
test "T"
arch C
loc x int init 0 ends 4
thread 0 P0
  b0:
    ret
end
cond exists true
IR
check filterreg '10:1: error: invalid IR: the filter names register 0:r7, which thread 0 does not have' <<'IR'
test "T"
arch C
loc x int init 0
loc m int init 0
thread 0 P0
  b0:
    ret
end
cond exists true
filter 0:r7=1
IR
check finalundef '7:5: error: invalid IR: thread 0: %4 is used but never defined' <<'IR'
test "T"
arch C
loc x int init 0
loc m int init 0
thread 0 P0
  b0:
    ret
  final r0 = %4
end
cond exists true
IR
check intaddr '7:5: error: invalid IR: thread 0: load address operand is the integer 5, not an address' <<'IR'
test "T"
arch C
loc x int init 0
loc m int init 0
thread 0 P0
  b0:
    %0 = load.rlx 5
    ret
end
cond exists true
IR
check lock2 '8:5: error: mtx_lock(m) in P0: the thread already holds it and would wait for itself (line 7)' <<'IR'
test "T"
arch C
loc x int init 0
loc m int init 0
thread 0 P0
  b0:
    lock.mtx &m
    lock.mtx &m
    unlock.mtx &m
    ret
end
cond exists true
IR
check locsreg '10:1: error: invalid IR: `locations` names register 0:r7, which thread 0 does not have' <<'IR'
test "T"
arch C
loc x int init 0
loc m int init 0
thread 0 P0
  b0:
    ret
end
cond exists true
locations 0:r7
IR
check mutexdata '8:5: error: P0 uses mutex m as data: a mutex is named only by lock and unlock' <<'IR'
test "T"
arch C
loc x int init 0
loc m int init 0
thread 0 P0
  b0:
    lock.mtx &m
    store.rlx &m, 1
    unlock.mtx &m
    ret
end
cond exists true
IR
check mutexinit '4:5: error: mutex m starts locked (1): a mutex starts free' <<'IR'
test "T"
arch C
loc x int init 0
loc m int init 1
thread 0 P0
  b0:
    lock.mtx &m
    unlock.mtx &m
    ret
end
cond exists true
IR
check noblocks '5:8: error: invalid IR: thread 0: the thread has no blocks' <<'IR'
test "T"
arch C
loc x int init 0
loc m int init 0
thread 0 P0
end
cond exists true
IR
check nodom '14:5: error: invalid IR: thread 0: the definition of %0 in block 1 does not dominate its use' <<'IR'
test "T"
arch C
loc x int init 0
loc m int init 0
thread 0 P0
  b0:
    br 1, b1, b2
  b1:
    %0 = load.rlx &x
    jmp b3
  b2:
    jmp b3
  b3:
    store.rlx &x, %0
    ret
end
cond exists true
IR
check noret '5:8: error: invalid IR: thread 0: the thread has 0 ret instructions, not exactly one' <<'IR'
test "T"
arch C
loc x int init 0
loc m int init 0
thread 0 P0
  b0:
    jmp b1
  b1:
    jmp b2
  b2:
    cut 1
end
cond exists true
IR
check nosuch '7:5: error: invalid IR: thread 0: jmp targets block 5, which does not exist' <<'IR'
test "T"
arch C
loc x int init 0
loc m int init 0
thread 0 P0
  b0:
    jmp b5
  b1:
    ret
end
cond exists true
IR
check noterm '7:5: error: invalid IR: thread 0: block 0 does not end with br, jmp, ret or cut' <<'IR'
test "T"
arch C
loc x int init 0
loc m int init 0
thread 0 P0
  b0:
    store.rlx &x, 1
end
cond exists true
IR
check phiafter '12:5: error: invalid IR: thread 0: phi after a non-phi instruction in block 2' <<'IR'
test "T"
arch C
loc x int init 0
loc m int init 0
thread 0 P0
  b0:
    br 1, b1, b2
  b1:
    jmp b2
  b2:
    store.rlx &x, 1
    %0 = phi [1, b0], [2, b1]
    ret
end
cond exists true
IR
check phiargs '7:5: error: phi argument from b0, which is not a predecessor of b0' <<'IR'
test "T"
arch C
loc x int init 0
loc m int init 0
thread 0 P0
  b0:
    %0 = phi [1, b0]
    ret
end
cond exists true
IR
check ptrint '4:5: error: invalid IR: pointer location p starts with an integer' <<'IR'
test "T"
arch C
loc x int init 0
loc p ptr init 5
thread 0 P0
  b0:
    ret
end
cond exists true
IR
check sameside '7:5: error: invalid IR: thread 0: br has the same block 1 on both sides (use jmp)' <<'IR'
test "T"
arch C
loc x int init 0
loc m int init 0
thread 0 P0
  b0:
    br 1, b1, b1
  b1:
    ret
end
cond exists true
IR
check termmid '7:5: error: invalid IR: thread 0: ret is not the last instruction of block 0' <<'IR'
test "T"
arch C
loc x int init 0
loc m int init 0
thread 0 P0
  b0:
    ret
    store.rlx &x, 1
    ret
end
cond exists true
IR
check toentry '7:5: error: invalid IR: thread 0: jmp targets the entry block' <<'IR'
test "T"
arch C
loc x int init 0
loc m int init 0
thread 0 P0
  b0:
    jmp b0
end
cond exists true
IR
check tworet '5:8: error: invalid IR: thread 0: the thread has 2 ret instructions, not exactly one' <<'IR'
test "T"
arch C
loc x int init 0
loc m int init 0
thread 0 P0
  b0:
    br 1, b1, b2
  b1:
    ret
  b2:
    ret
end
cond exists true
IR
check undef '7:5: error: invalid IR: thread 0: %1 is used but never defined' <<'IR'
test "T"
arch C
loc x int init 0
loc m int init 0
thread 0 P0
  b0:
    %0 = add %1, 1
    ret
end
cond exists true
IR
check unlock0 '7:5: error: mtx_unlock(m) in P0: the thread does not hold it' <<'IR'
test "T"
arch C
loc x int init 0
loc m int init 0
thread 0 P0
  b0:
    unlock.mtx &m
    ret
end
cond exists true
IR
check unlockres '7:10: error: only a trylock has a result' <<'IR'
test "T"
arch C
loc x int init 0
loc m int init 0
thread 0 P0
  b0:
    %0 = unlock.mtx &m
    ret
end
cond exists true
IR
check unreach '9:5: error: invalid IR: thread 0: block 1 is unreachable' <<'IR'
test "T"
arch C
loc x int init 0
loc m int init 0
thread 0 P0
  b0:
    ret
  b1:
    jmp b2
  b2:
    store.rlx &x, 1
    jmp b1
end
cond exists true
IR
check usebefore '7:5: error: invalid IR: thread 0: %0 is used before its definition in block 0' <<'IR'
test "T"
arch C
loc x int init 0
loc m int init 0
thread 0 P0
  b0:
    %1 = add %0, 1
    %0 = load.rlx &x
    ret
end
cond exists true
IR
check x86mo '6:5: error: invalid IR: thread 0: access mode ' <<'IR'
test "T"
arch X86
loc x int init 0
thread 0 P0
  b0:
    %0 = load.sc &x
    ret
end
cond exists true
IR
[ "$fails" -eq 0 ] || { echo "ir_positions: $fails failure(s) in $n texts"; exit 1; }
echo "ir_positions: $n rejected IR texts, each at its file:line:col"
