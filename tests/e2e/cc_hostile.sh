#!/bin/sh
# cc-check reads whatever object --cc leaves, so a malformed one is exit 2
# naming what is wrong, never a crash, a huge allocation, bytes read from
# outside the object or a silent verdict: a fake compiler
# (tests/cc/hostile-cc.py) damages a real object -- a symbol table with
# entry size 0, a function's size of 2^40, an offset that wraps, an
# absolute section index, another machine in the header, an invalid byte
# after the first instruction, no ELF, no object -- and clang's AArch64,
# RISC-V and i386 objects are refused by the machine's name.
set -u
here=$(cd "$(dirname "$0")" && pwd)
L=${LITMUSC:?LITMUSC must name the program under test}
command -v gcc >/dev/null 2>&1 || { echo "SKIP: needs gcc"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: needs python3"; exit 77; }
sb="$here/../corpus/c11/classic/SB+poscscs.litmus"
tmp=$(mktemp -d)
export LITMUSC_CACHE="$tmp/cache"
. "$(cd "$(dirname "$0")/.." && pwd)/seed_cache.sh"
trap 'rm -rf "$tmp"' EXIT INT TERM
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# expect MODE FLAGS TEXT: the fake compiler in MODE at FLAGS; exit 2, and
# TEXT (a grep pattern) in the message, within 20 s
expect() {
    mode=$1 flags=$2 text=$3
    cc="$tmp/cc-$mode"
    printf '#!/bin/sh\nexec python3 "%s" %s "$@"\n' "$here/../cc/hostile-cc.py" "$mode" >"$cc"
    chmod +x "$cc"
    timeout 20 "$L" cc-check --cc "$cc" --cflags "$flags" "$sb" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ $rc = 2 ] || fail "$mode: exit $rc, not 2: $(head -c 600 "$tmp/err")"
    grep -q -- "$text" "$tmp/err" || fail "$mode: no '$text' in: $(head -c 600 "$tmp/err")"
    grep -q "SB+poscscs .* refused$" "$tmp/out" || fail "$mode: no refused line: $(cat "$tmp/out")"
}
expect entsize0 -O2 "the symbol table (section [0-9]*) has entries of 0 bytes, not 24"
expect huge -O2 "symbol P0 runs outside its section [0-9]* (.text): offset 0x0, size 0x10000000000"
expect wrap -O2 "symbol P0 runs outside its section [0-9]* (.text): offset 0xfffffffffffffff0, size 0x40"
expect abs -O2 "symbol P0 is in no section of the object (section index 0xfff1: absolute)"
expect aarch64 -O2 "the object holds AArch64 code (e_machine 183, 64-bit ELF), not x86-64"
expect riscv -O2 "the object holds RISC-V code (e_machine 243, 64-bit ELF), not x86-64"
expect i386 -O2 "the object holds i386 code (e_machine 3, 64-bit ELF), not x86-64"
expect invalid -O2 "P0: invalid instruction at offset 0x[0-9a-f]* of P0 (byte 0x06)"
expect garbage -O2 "the compiler's output is not an ELF object"
expect none -O2 "the compiler left no object: No such file or directory"

# real objects of other machines, where clang builds them
for target in aarch64-linux-gnu:AArch64 riscv64-linux-gnu:RISC-V i386-linux-gnu:i386; do
    t=${target%%:*} name=${target#*:}
    cc="$tmp/clang-$t"
    # freestanding: clang's own stdint.h and stdatomic.h, no other libc needed
    printf '#!/bin/sh\nexec clang --target=%s -ffreestanding "$@"\n' "$t" >"$cc"
    chmod +x "$cc"
    if ! command -v clang >/dev/null 2>&1 || ! printf '#include <stdint.h>\n#include <stdatomic.h>\nint x;\n' | "$cc" -x c -c - -o "$tmp/probe.o" 2>/dev/null; then
        echo "SKIP: clang cannot build for $t"
        continue
    fi
    "$L" cc-check --cc "$cc" "$sb" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ $rc = 2 ] && grep -q "the object holds $name code" "$tmp/err" ||
        fail "clang --target=$t: exit $rc: $(cat "$tmp/err")"
done

[ "$fails" -eq 0 ] || exit 1
echo "cc_hostile: ok"
