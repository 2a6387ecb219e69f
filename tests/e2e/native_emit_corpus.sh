#!/bin/sh
# check: long
# Every corpus test becomes a native harness that compiles warning-free:
# `litmusc emit --target c11` for every X86, C and Java test, and
# `--target x86` (inline asm) for every X86 test, compiled with gcc and
# clang at -Wall -Wextra -Werror together with the runtime.  C11 sources
# are checked with -fsyntax-only (full -O2 builds of generated C11 programs
# run in the unit tests and native_emit_cli.sh); x86 sources get a full
# -O2 compile with both compilers, so the assembler sees every asm
# template.  A test may be refused only if herd7 refused it too (its
# verdict files are empty), and then with a file:line:col: error.
#
# Every test is emitted; by default a fixed sample of the sources is
# compiled (every 24th of each corpus folder, in name order, so each
# generator family and catalogue folder has its share), CORPUS_ALL=1
# compiles them all (make check-all).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../corpora.sh"
: "${LITMUSC:?set LITMUSC to the litmusc program}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
CFLAGS="-std=c11 -pthread -Wall -Wextra -Werror"
every=24
[ "${CORPUS_ALL:-0}" = 1 ] && every=1

# herd7 refused the test when every verdict file beside it is empty.
herd_refused() {
    base=${1%.litmus}
    for v in "$base".*.herd; do
        [ -s "$v" ] && return 1
    done
    return 0
}

# emit TARGET LITMUS OUT.c: one test; a refusal must be a herd refusal too.
emitted=0
refused=0
emit_one() {
    if "$LITMUSC" emit --target "$1" "$2" -o "$3" 2> "$tmp/err"; then
        [ -s "$3" ] || fail "$1 $2: exit 0 but no output"
        emitted=$((emitted + 1))
        return
    fi
    [ -e "$3" ] && fail "$1 $2: failed but left $3 behind"
    if herd_refused "$2" && grep -Eq '^litmusc emit: [^:]+:[0-9]+:[0-9]+: error: ' "$tmp/err"; then
        refused=$((refused + 1))
    else
        fail "$1 $2: $(head -3 "$tmp/err")"
    fi
}

# Each corpus folder is emitted in one batch (folder mode: NAME.c per test
# plus the runtime); a batch that fails is redone test by test, so that a
# refusal is judged per test.
mkdir -p "$tmp/c11" "$tmp/x86" "$tmp/rt"
: > "$tmp/tests"
for corpus in $(corpora); do
    find "$corpus/x86" "$corpus/c11" "$corpus/java" -name '*.litmus' | sort > "$tmp/one"
    [ "$(wc -l < "$tmp/one")" -ge "$(corpus_min "$corpus")" ] || fail "only $(wc -l < "$tmp/one") tests in $corpus"
    cat "$tmp/one" >> "$tmp/tests"
done
total=$(wc -l < "$tmp/tests")
sed 's|/[^/]*$||' "$tmp/tests" | sort -u > "$tmp/dirs"
k=0
while read -r d; do
    k=$((k + 1))
    ls "$d"/*.litmus > "$tmp/batch"
    targets=c11
    case "$d" in */corpus/x86/*) targets="c11 x86" ;; esac
    for target in $targets; do
        out="$tmp/$target/$k"
        if xargs "$LITMUSC" emit --target "$target" -o "$out/" < "$tmp/batch" 2> "$tmp/err"; then
            n=$(ls "$out" | grep -vc '^lrt')
            [ "$n" -eq "$(wc -l < "$tmp/batch")" ] || fail "$target $d: $n sources for $(wc -l < "$tmp/batch") tests"
            emitted=$((emitted + n))
        else
            [ -d "$out" ] && [ -n "$(ls "$out")" ] && fail "$target $d: a failed batch left files behind"
            mkdir -p "$out"
            i=0
            while read -r f; do
                i=$((i + 1))
                emit_one "$target" "$f" "$out/t$i.c"
            done < "$tmp/batch"
        fi
        rm -f "$out"/lrt*
    done
done < "$tmp/dirs"
echo "emitted $emitted sources from $total tests, $refused refused by both herd and litmusc"

# The runtime, as a folder-mode emit writes it.
"$LITMUSC" emit --target c11 "$corpus_sb" -o "$tmp/rt/" > /dev/null 2>&1 ||
    fail "folder-mode emit failed"
[ -f "$tmp/rt/lrt.h" ] || fail "folder-mode emit wrote no runtime"

# compile DIR COMPILER FLAGS...: every .c under DIR, 40 per process, two
# at a time; a failing batch is retried file by file to name the culprit.
compile_all() {
    dir=$1
    shift
    ( cd "$dir" && find . -name '*.c' | sort | awk -v n=$every 'NR % n == 1 || n == 1' ) > "$tmp/list"
    [ -s "$tmp/list" ] || { fail "nothing to compile in $dir"; return; }
    mkdir -p "$tmp/obj"
    if ( cd "$tmp/obj" && sed "s|^\.|$dir|" "$tmp/list" | xargs -P 2 -n 40 "$@" -I"$tmp/rt" > "$tmp/cc.out" 2>&1 ) &&
        [ ! -s "$tmp/cc.out" ]; then
        compiled=$((compiled + $(wc -l < "$tmp/list")))
    else
        while read -r c; do
            if ! ( cd "$tmp/obj" && "$@" -I"$tmp/rt" "$dir/$c" > "$tmp/one.out" 2>&1 ) || [ -s "$tmp/one.out" ]; then
                fail "$* $dir/$c: $(head -5 "$tmp/one.out")"
            fi
        done < "$tmp/list"
    fi
    rm -rf "$tmp/obj"
}

have() { command -v "$1" > /dev/null 2>&1; }
ran=0
compiled=0
for cc in gcc clang; do
    have "$cc" || continue
    ran=$((ran + 1))
    # The runtime on its own, as every program compiles it.
    ( cd "$tmp/rt" && "$cc" -O2 $CFLAGS -c lrt_*.c ) > "$tmp/rt.out" 2>&1 || fail "$cc: runtime: $(head -5 "$tmp/rt.out")"
    [ -s "$tmp/rt.out" ] && fail "$cc: runtime warnings: $(head -5 "$tmp/rt.out")"
    rm -f "$tmp/rt"/*.o
    compile_all "$tmp/c11" "$cc" $CFLAGS -fsyntax-only
    compile_all "$tmp/x86" "$cc" -O2 $CFLAGS -c
done
[ "$ran" -gt 0 ] || fail "neither gcc nor clang found"
echo "$compiled compilations warning-free with $ran compilers (every $every of the sources)"

if [ "$fails" -ne 0 ]; then
    echo "native_emit_corpus: $fails failures"
    exit 1
fi
echo "native_emit_corpus: ok"
