#!/bin/sh
# herd7's own X86_64 instruction tests (tests/x86_64/herd-instructions, from
# herdtools7 7.57) and the forms of tests/x86_64/herd-forms: `litmusc model`
# must print each test's block exactly as herd7 did (the .expected file
# beside it; the Time line aside): states, verdict, counts, condition,
# observation and hash.  Then what litmusc refuses of herd's dialect: exit
# 2, the construct named, nothing on stdout.  With HERD7 naming herd7 (and
# HERD_LIBDIR its libdir, where it is not installed), herd7 is run on each
# test as well and must print its .expected block.
set -u
L=${LITMUSC:?LITMUSC must name the program under test}
here=$(cd "$(dirname "$0")/../x86_64" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# Cut herd-format output into one file per test, named by its Test line.
split_blocks() {
    mkdir -p "$2"
    awk -v dir="$2" '
        /^Test / { file = dir "/" $2; printf "" > file }
        /^Time / { next }
        file != "" { print >> file }
        /^$/ { if (file != "") close(file); file = "" }
    ' "$1"
}

# agree DIR: every DIR/*.litmus against its .expected, in one litmusc run.
agree() {
    dir=$here/$1
    n=0
    ok=0
    : > "$tmp/want"
    for f in "$dir"/*.litmus; do
        cat "$f.expected" >> "$tmp/want"
        n=$((n + 1))
    done
    rm -rf "$tmp/exp" "$tmp/got"
    # shellcheck disable=SC2046
    "$L" model "$dir"/*.litmus > "$tmp/out" 2> "$tmp/err"
    rc=$?
    [ "$rc" -eq 0 ] || { echo "FAIL: $1: litmusc model exited $rc"; sed 's/^/    /' "$tmp/err" | head -10; fail=1; }
    split_blocks "$tmp/want" "$tmp/exp"
    split_blocks "$tmp/out" "$tmp/got"
    for e in "$tmp/exp"/*; do
        t=$(basename "$e")
        if [ -f "$tmp/got/$t" ] && cmp -s "$e" "$tmp/got/$t"; then
            ok=$((ok + 1))
        else
            echo "FAIL: $1/$t differs from herd7's block"
            [ -f "$tmp/got/$t" ] && diff "$e" "$tmp/got/$t" | head -10 | sed 's/^/    /'
            fail=1
        fi
    done
    [ "$n" -gt 0 ] && [ "$(ls "$tmp/exp" | wc -l)" -eq "$n" ] || { echo "FAIL: $1: $n tests, $(ls "$tmp/exp" | wc -l) blocks"; fail=1; }
    echo "herd_x86_64_instructions: $1: $ok of $n agree with herd7 7.57"
}

agree herd-instructions
agree herd-forms
[ "$(ls "$here/herd-instructions"/*.litmus | wc -l)" -eq 10 ] || { echo "FAIL: herd-instructions does not hold herd's 10 tests"; fail=1; }

# refuse NAME MESSAGE: the test written to NAME.litmus (stdin) is refused
# with exit 2 and exactly MESSAGE, at its line and column.
refuse() {
    cat > "$tmp/$1.litmus"
    (cd "$tmp" && "$L" model "$1.litmus" > out 2> err)
    rc=$?
    [ "$rc" -eq 2 ] || { echo "FAIL: $1: exit $rc, expected 2"; fail=1; }
    [ -s "$tmp/out" ] && { echo "FAIL: $1: wrote to stdout"; fail=1; }
    [ "$(cat "$tmp/err")" = "litmusc model: $1.litmus:$2" ] ||
        { echo "FAIL: $1: got '$(cat "$tmp/err")', expected '$2'"; fail=1; }
}

# A loop: herd7 unrolls it (and warns that outcomes may be missing); the
# IR has no loops.
refuse loop '7:5: error: jump back to label L0: loops are not supported' <<'T'
X86_64 loop
{ x=0; }
 P0             | P1          ;
 L0:            | movl $1,(x) ;
 movl (x),%eax  |             ;
 cmp $0,%eax    |             ;
 je L0          |             ;
exists (0:rax=1)
T
# Two blocks that jump to each other are a loop too, whichever comes first.
refuse cycle '9:6: error: jump back to label L1: loops are not supported' <<'T'
X86_64 cycle
{ x=0; }
 P0            ;
 jmp L2        ;
 L1:           ;
 movl (x),%eax ;
 jmp L2        ;
 L2:           ;
 jmp L1        ;
exists (0:rax=1)
T
# A cell of an array is a location chosen when the thread is lowered: an
# index read from memory is refused, so are offsets between two cells or
# outside the array, and the array itself in the condition (herd prints
# t={...} there).
refuse arrdep '5:7: error: an offset into array t that depends on a value read from memory is not supported' <<'T'
X86_64 arrdep
{ int64_t t[2]={1,2}; 0:rax=t; x=0; }
 P0                       ;
 movq (x),%rbx            ;
 movq (%rax,%rbx,8),%rcx  ;
exists (0:rcx=1)
T
refuse arrmid '4:7: error: offset 4 into array t falls between its 8-byte cells' <<'T'
X86_64 arrmid
{ int64_t t[2]={1,2}; 0:rax=t; }
 P0                 ;
 movq 4(%rax),%rcx  ;
exists (0:rcx=1)
T
refuse arrout '4:7: error: offset 16 is outside array t[2]' <<'T'
X86_64 arrout
{ int64_t t[2]={1,2}; 0:rax=t; }
 P0                  ;
 movq 16(%rax),%rcx  ;
exists (0:rcx=1)
T
refuse arrcond '5:9: error: array t in the condition is not supported' <<'T'
X86_64 arrcond
{ int64_t t[2]={1,2}; 0:rax=t; }
 P0              ;
 movq $4,(%rax)  ;
exists (t=1)
T
refuse segment '4:10: error: segment override %fs: is not supported (only %cs:)' <<'T'
X86_64 segment
{ x=0; }
 P0                          ;
 movl $1,%fs:0(%rcx,%rbx,1)  ;
exists (x=1)
T

if [ -n "${HERD7:-}" ] && [ -x "$HERD7" ]; then
    for f in "$here"/herd-instructions/*.litmus "$here"/herd-forms/*.litmus; do
        if [ -n "${HERD_LIBDIR:-}" ]; then
            "$HERD7" -set-libdir "$HERD_LIBDIR" "$f" > "$tmp/h" 2>&1
        else
            "$HERD7" "$f" > "$tmp/h" 2>&1
        fi
        grep -v '^Time ' "$tmp/h" | cmp -s - "$f.expected" ||
            { echo "FAIL: herd7 does not print $f.expected"; grep -v '^Time ' "$tmp/h" | diff "$f.expected" - | head -6; fail=1; }
    done
else
    echo "SKIP: HERD7 is not set: the .expected files were not compared with herd7's output again"
fi

[ "$fail" -eq 0 ] && echo "herd_x86_64_instructions: ok"
exit "$fail"
