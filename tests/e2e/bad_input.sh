#!/bin/sh
# Bad input to `litmusc parse`: every file in tests/bad gets exactly one
# "file:line:col: error: message" line on stderr (the one expected.tsv
# names), nothing on stdout, and exit status 2.  Inputs too big or too
# binary to commit are made here: an empty file, NUL bytes in each
# section, random bytes, 1 MB lines, a missing file and a directory.
set -u
L=${LITMUSC:?LITMUSC must name the program under test}
here=$(cd "$(dirname "$0")" && pwd)
bad_dir="$here/../bad"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0

# check FILE [EXPECTED-LINE]: one error line (equal to EXPECTED-LINE when
# given), empty stdout, status 2.  Runs from the file's directory so the
# message names the file as given.
check() {
    file=$1
    want=${2:-}
    n=$((n + 1))
    dir=$(dirname "$file")
    base=$(basename "$file")
    (cd "$dir" && "$L" parse "$base" >"$tmp/out" 2>"$tmp/err")
    rc=$?
    lines=$(grep -c '' "$tmp/err")
    if [ "$rc" -ne 2 ]; then
        echo "FAIL $base: exit status $rc, expected 2"; fail=1; return
    fi
    if [ -s "$tmp/out" ]; then
        echo "FAIL $base: wrote to stdout"; fail=1; return
    fi
    if [ "$lines" -ne 1 ]; then
        echo "FAIL $base: $lines lines on stderr, expected 1:"; sed 's/^/    /' "$tmp/err" | head -5; fail=1; return
    fi
    if ! grep -Eq "^litmusc parse: $base(:[0-9]+:[0-9]+)?: error: " "$tmp/err"; then
        echo "FAIL $base: not a file:line:col: error: line: $(head -c 300 "$tmp/err")"; fail=1; return
    fi
    if [ -n "$want" ] && [ "$(cat "$tmp/err")" != "litmusc parse: $want" ]; then
        echo "FAIL $base:"; echo "    got:  $(cat "$tmp/err")"; echo "    want: litmusc parse: $want"; fail=1
    fi
}

# The committed suite, each with its exact expected line.
count=0
tab=$(printf '\t')
while IFS="$tab" read -r name pos msg; do
    [ -n "$name" ] || continue
    count=$((count + 1))
    if [ ! -f "$bad_dir/$name.litmus" ]; then
        echo "FAIL $name: listed in expected.tsv but missing"; fail=1; continue
    fi
    check "$bad_dir/$name.litmus" "$name.litmus:$pos: error: $msg"
done < "$bad_dir/expected.tsv"
files=$(ls "$bad_dir"/*.litmus | wc -l)
if [ "$files" -ne "$count" ]; then
    echo "FAIL: $files files in tests/bad but $count lines in expected.tsv"; fail=1
fi

# Generated inputs.
: > "$tmp/empty.litmus"
check "$tmp/empty.litmus" "empty.litmus:1:1: error: empty file: expected a header 'ARCH NAME'"
printf 'X86\000 T\n{ }\n' > "$tmp/nul_header.litmus"
check "$tmp/nul_header.litmus" "nul_header.litmus:1:4: error: expected the test name after 'X86'"
printf 'X86 T\n{ x=0;\000 }\n P0 ;\n MOV [x],$1 ;\nexists (x=1)\n' > "$tmp/nul_init.litmus"
check "$tmp/nul_init.litmus" "nul_init.litmus:2:7: error: unexpected byte 0x00"
printf 'X86 T\n{ }\n P0 ;\n MOV [x],\000$1 ;\nexists (x=1)\n' > "$tmp/nul_prog.litmus"
check "$tmp/nul_prog.litmus" "nul_prog.litmus:4:10: error: unexpected byte 0x00"
printf 'X86 T\n{ }\n P0 ;\n MOV [x],$1 ;\nexists (x=1\000)\n' > "$tmp/nul_cond.litmus"
check "$tmp/nul_cond.litmus" "nul_cond.litmus:5:12: error: unexpected byte 0x00"
printf 'C T\n{ }\nP0 (atomic_int* x) { *x\000 = 1; }\nexists (x=1)\n' > "$tmp/nul_c.litmus"
check "$tmp/nul_c.litmus" "nul_c.litmus:3:24: error: unexpected byte 0x00"
printf 'Java T\n{ x=0; 0:X=x; }\nThread0 { X.set(1);\000 }\nexists (x=1)\n' > "$tmp/nul_java.litmus"
check "$tmp/nul_java.litmus" "nul_java.litmus:3:20: error: unexpected byte 0x00"
printf '\000\000\000\000' > "$tmp/nul_only.litmus"
check "$tmp/nul_only.litmus" "nul_only.litmus:1:1: error: unexpected byte 0x00"
printf '\377\376X86 T\n' > "$tmp/bom.litmus"
check "$tmp/bom.litmus" "bom.litmus:1:1: error: unexpected byte 0xff"
# 10001 threads: the message names the limit (P10000 is well formed, too many).
awk 'BEGIN { printf "X86 T\n{ }\n"; row = ""; for (i = 0; i < 10000; i++) row = row "P" i " | ";
             print length(row) + 1 > "/dev/stderr"; print row "P10000 ;"; print "exists (0:EAX=0)" }' \
    > "$tmp/threads.litmus" 2> "$tmp/threads.col"
check "$tmp/threads.litmus" "threads.litmus:3:$(cat "$tmp/threads.col"): error: too many threads: at most 10000 (P0 to P9999), found 'P10000'"
# random bytes, alone and after a valid header and init
for i in 1 2 3 4 5; do
    head -c 4096 /dev/urandom > "$tmp/random$i.litmus"
    check "$tmp/random$i.litmus"
    { printf 'X86 T\n{ x=0; }\n P0 ;\n'; head -c 2048 /dev/urandom; } > "$tmp/random_prog$i.litmus"
    check "$tmp/random_prog$i.litmus"
    { printf 'C T\n{ }\nP0 (atomic_int* x) {\n'; head -c 2048 /dev/urandom; } > "$tmp/random_c$i.litmus"
    check "$tmp/random_c$i.litmus"
done
# 1 MB lines: blanks then a bad byte (the column is counted exactly), a
# 1 MB mnemonic (the message quotes it shortened), a 1 MB condition.
mb=1048576
{ printf 'X86 T\n{ }\n P0 ;\n MOV [x],$1'; head -c $mb /dev/zero | tr '\000' ' '; printf '@ ;\nexists (x=1)\n'; } > "$tmp/long_blank.litmus"
check "$tmp/long_blank.litmus" "long_blank.litmus:4:$((12 + mb)): error: unexpected character '@'"
{ printf 'X86 T\n{ }\n P0 ;\n '; head -c $mb /dev/zero | tr '\000' 'A'; printf ' [x],$1 ;\nexists (x=1)\n'; } > "$tmp/long_mnemonic.litmus"
check "$tmp/long_mnemonic.litmus" "long_mnemonic.litmus:4:2: error: unknown instruction 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA...'"
{ printf 'X86 T\n{ }\n P0 ;\n MOV [x],$1 ;\nexists (x=1'; head -c $mb /dev/zero | tr '\000' '/'; printf ')\n'; } > "$tmp/long_cond.litmus"
check "$tmp/long_cond.litmus"
{ printf 'X86 T\n'; head -c $mb /dev/zero | tr '\000' 'k'; printf '\n{ }\n'; } > "$tmp/long_info.litmus"
check "$tmp/long_info.litmus"
# trees past the node bound, and nesting past the depth bound, are errors
# (later passes walk trees recursively); big but reasonable ones parse
{ printf 'X86 T\n{ }\n P0 ;\n MOV [x],$1 ;\nexists (x=1'; awk 'BEGIN{for(i=0;i<20000;i++) printf " \\/ ~x=1"}'; printf ')\n'; } > "$tmp/huge_cond.litmus"
check "$tmp/huge_cond.litmus" "huge_cond.litmus:5:40008: error: section too complex (more than 10000 operators and statements), found '~'"
{ printf 'C T\n{ }\nP0 (atomic_int* x) { int r0 = 1'; awk 'BEGIN{for(i=0;i<20000;i++) printf " + 1"}'; printf '; }\nexists (x=1)\n'; } > "$tmp/huge_expr.litmus"
check "$tmp/huge_expr.litmus" "huge_expr.litmus:3:40027: error: section too complex (more than 10000 operators and statements), found '1'"
{ printf 'X86 T\n{ }\n P0 ;\n MOV [x],$1 ;\nexists '; awk 'BEGIN{for(i=0;i<300;i++) printf "("}'; printf 'x=1'; awk 'BEGIN{for(i=0;i<300;i++) printf ")"}'; printf '\n'; } > "$tmp/deep_cond.litmus"
check "$tmp/deep_cond.litmus" "deep_cond.litmus:5:209: error: condition nested too deeply, found '('"
{ printf 'Java T\n{ x=0; 0:X=x; }\nThread0 {\n'; awk 'BEGIN{for(i=0;i<300;i++) printf "{"}'; awk 'BEGIN{for(i=0;i<300;i++) printf "}"}'; printf '\n}\nexists (x=1)\n'; } > "$tmp/deep_blocks.litmus"
check "$tmp/deep_blocks.litmus" "deep_blocks.litmus:4:201: error: statements nested too deeply, found '{'"
{ printf 'X86 T\n{ }\n P0 ;\n MOV [x],$1 ;\nexists (x=1'; awk 'BEGIN{for(i=0;i<9000;i++) printf " /\\ x=1"}'; printf ')\n'; } > "$tmp/big_cond.litmus"
"$L" parse --check "$tmp/big_cond.litmus" > /dev/null 2>&1 || { echo "FAIL: a 9000-atom condition should parse"; fail=1; }
{ printf 'C T\n{ }\nP0 (atomic_int* x) { int r0 = 1'; awk 'BEGIN{for(i=0;i<9000;i++) printf " + 1"}'; printf '; }\nexists (0:r0=1)\n'; } > "$tmp/big_expr.litmus"
"$L" parse --check "$tmp/big_expr.litmus" > /dev/null 2>&1 || { echo "FAIL: a 9000-term expression should parse"; fail=1; }

# input without end: refused at a size, quickly, by every reader
for cmd in parse model races ir; do
    "$L" $cmd /dev/zero > "$tmp/out" 2> "$tmp/err"
    rc=$?
    n=$((n + 1))
    [ "$rc" -eq 2 ] && [ "$(cat "$tmp/err")" = "litmusc $cmd: /dev/zero: error: input larger than 256 MB" ] ||
        { echo "FAIL $cmd /dev/zero: exit $rc: $(cat "$tmp/err")"; fail=1; }
done
# whole-test limits point at the thread or instruction that crosses them
limit() {  # file command... expected-line
    f=$1 want=$2
    shift 2
    n=$((n + 1))
    (cd "$tmp" && "$L" "$@" "$f" > "$tmp/out" 2> "$tmp/err")
    rc=$?
    [ "$rc" -eq 2 ] && grep -qF -- "$want" "$tmp/err" && [ "$(grep -c '' "$tmp/err")" -eq 1 ] ||
        { echo "FAIL $f ($*): exit $rc: $(cat "$tmp/err"), want $want"; fail=1; }
    [ -e "$tmp/out.c" ] && { echo "FAIL $f: left $tmp/out.c"; fail=1; rm -f "$tmp/out.c"; }
}
awk 'BEGIN { printf "X86 T33\n{ }\n"; for (i = 0; i < 33; i++) printf "%s P%d ", i ? "|" : "", i; printf ";\n";
             for (i = 0; i < 33; i++) printf "%s MOV [x],$1 ", i ? "|" : ""; printf ";\nexists ([x]=1)\n" }' > "$tmp/t33.litmus"
limit t33.litmus "litmusc emit: t33.litmus:4:418: error: 33 threads: native harnesses support at most 32 (P32 is the 33rd)" \
    emit --target c11 -o out.c
# (the model's limit of events is not bad input but a limit of the tool:
# exit 3, tests/e2e/model_cli.sh)
awk 'BEGIN { l = sprintf("%300s", ""); gsub(/ /, "x", l); printf "X86 LL\n{ }\n P0 ;\n MOV [%s],$1 ;\nexists ([%s]=1)\n", l, l }' \
    > "$tmp/longloc.litmus"
limit longloc.litmus "litmusc emit: longloc.litmus:4:2: error: location name 'xxxx" emit --target x86 -o out.c

# a file that cannot be read
check "$tmp/does_not_exist.litmus" "does_not_exist.litmus: error: cannot open: No such file or directory"
mkdir "$tmp/dir.litmus"
check "$tmp/dir.litmus"

# usage errors exit 2 too
"$L" parse >/dev/null 2>&1
[ $? -eq 2 ] || { echo "FAIL: 'parse' without files should exit 2"; fail=1; }
"$L" parse --frobnicate x >/dev/null 2>&1
[ $? -eq 2 ] || { echo "FAIL: unknown option should exit 2"; fail=1; }

echo "bad_input: $n inputs checked"
exit $fail
