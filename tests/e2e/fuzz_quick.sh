#!/bin/sh
# A short run of the mutation fuzzer (bench/fuzz.sh): 6 inputs of each
# kind (X86, X86_64, C, Java, cat, IR text, and objects corrupted between
# gcc and cc-check), each with 10 s of CPU time.  No input may crash the
# program, make a sanitizer report (under make check SANITIZE=1), run past
# its time or fail without a message.  The long runs' figures are in
# bench/RESULTS.md ("Fuzzing").
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${LITMUSC:?LITMUSC must name the program under test}"
command -v python3 > /dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }
kinds=x86,x86_64,c,java,cat,ir
if command -v gcc > /dev/null 2>&1; then kinds=$kinds,elf; else echo "SKIP: no gcc, no corrupted objects"; fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
n=$(($(echo "$kinds" | tr ',' '\n' | wc -l) * 6))
if ! LITMUSC="$LITMUSC" sh "$here/../../bench/fuzz.sh" -n "$n" --seed "${FUZZ_SEED:-7}" --kinds "$kinds" \
        --keep "$tmp/found" > "$tmp/out" 2>&1; then
    cat "$tmp/out"
    echo "FAIL: the fuzzer found inputs that crash, hang or fail silently"
    exit 1
fi
echo "fuzz_quick: ok ($n inputs)"
