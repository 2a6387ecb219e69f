#!/bin/sh
# The Java targets on bad input and hostile names: a precise
# file:line:col error, exit status 2, and no output file left behind;
# names from the litmus file never reach Java unescaped (the generated
# classes compile and run).  Needs a JDK for the last part.
set -u
L=${LITMUSC:?LITMUSC must name the program under test}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LITMUSC_CACHE="$tmp/cache"
. "$(cd "$(dirname "$0")/.." && pwd)/seed_cache.sh"
fail=0
bad() { echo "FAIL: $*"; fail=1; }

cat > "$tmp/good.litmus" <<'LIT'
Java good
{ x = 0; y = 0; 0:X=x; 0:Y=y; 1:X=x; 1:Y=y; }
Thread0 { X.setRelease(1); Y.setRelease(1); }
Thread1 { int r0 = Y.getAcquire(); int r1 = X.getAcquire(); }
exists (1:r0=1 /\ 1:r1=0)
LIT
printf 'Java broken\n{ x = 0; 0:X=x; }\nThread0 { X.set(1) }\nexists (0:r0=0)\n' > "$tmp/broken.litmus"
cat > "$tmp/x86.litmus" <<'LIT'
X86 SBx
{ x=0; y=0; }
 P0          | P1          ;
 MOV [x],$1  | MOV [y],$1  ;
 MOV EAX,[y] | MOV EAX,[x] ;
exists (0:EAX=0 /\ 1:EAX=0)
LIT

for target in jcstress java; do
    # a broken file among good ones: error, status 2, nothing written
    "$L" emit --target $target -o "$tmp/out-$target" "$tmp/good.litmus" "$tmp/broken.litmus" \
        > /dev/null 2> "$tmp/err"
    st=$?
    [ "$st" -eq 2 ] || bad "$target: broken input exited $st, not 2"
    grep -qE "broken.litmus:[0-9]+:[0-9]+: error: " "$tmp/err" ||
        bad "$target: no file:line:col error: $(cat "$tmp/err")"
    [ -z "$(find "$tmp/out-$target" -type f 2>/dev/null)" ] || bad "$target: files left behind"
    # x86 tests have no Java form
    "$L" emit --target $target -o "$tmp/x-$target" "$tmp/x86.litmus" > /dev/null 2> "$tmp/err"
    st=$?
    [ "$st" -eq 2 ] || bad "$target: x86 input exited $st, not 2"
    grep -q "x86.litmus:.*error: .*Java and C tests" "$tmp/err" || bad "$target: $(cat "$tmp/err")"
    [ -z "$(find "$tmp/x-$target" -type f 2>/dev/null)" ] || bad "$target: files left for x86 input"
    # bad package, missing -o
    "$L" emit --target $target --package 'a.int' -o "$tmp/p" "$tmp/good.litmus" > /dev/null 2>&1
    [ $? -eq 2 ] || bad "$target: a keyword in --package is not refused"
    "$L" emit --target $target "$tmp/good.litmus" "$tmp/good.litmus" > /dev/null 2>&1
    [ $? -eq 2 ] || bad "$target: two tests without -o are not refused"
done
# an output folder that cannot be made: status 3, nothing written
: > "$tmp/plainfile"
"$L" emit --target java -o "$tmp/plainfile/out" "$tmp/good.litmus" > /dev/null 2> "$tmp/err"
[ $? -eq 3 ] || bad "an impossible output folder is not status 3"
grep -q "error: " "$tmp/err" || bad "no error for an impossible output folder"
"$L" run --target java "$tmp/broken.litmus" > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] || bad "run --target java: broken input is not status 2"
grep -qE "broken.litmus:[0-9]+:[0-9]+: error: " "$tmp/err" || bad "run: $(cat "$tmp/err")"

# hostile names: a keyword location, a handle-like one, a test name full of
# punctuation; two tests whose names mangle alike
cat > "$tmp/hostile.litmus" <<'LIT'
C Weird.name+x[1]:y/z
{ [class] = 0; [VH_class] = 0; }
P0 (atomic_int* class, atomic_int* VH_class) {
  atomic_store_explicit(class, 1, memory_order_relaxed);
  int r0 = atomic_load_explicit(VH_class, memory_order_relaxed);
}
P1 (atomic_int* class, atomic_int* VH_class) {
  atomic_store_explicit(VH_class, 1, memory_order_relaxed);
  int r0 = atomic_load_explicit(class, memory_order_relaxed);
}
exists (0:r0=0 /\ 1:r0=0)
LIT
sed 's/^C Weird.name+x\[1\]:y\/z/C Weird-name+x[1]:y\/z/' "$tmp/hostile.litmus" > "$tmp/hostile2.litmus"
"$L" emit --target jcstress -o "$tmp/hj" "$tmp/hostile.litmus" "$tmp/hostile2.litmus" > "$tmp/hj.list" 2> "$tmp/err" ||
    bad "hostile names: jcstress emission failed: $(cat "$tmp/err")"
[ "$(sort -u "$tmp/hj.list" | wc -l)" -eq 2 ] || bad "two tests did not get two files"
"$L" emit --target java -o "$tmp/hr" "$tmp/hostile.litmus" "$tmp/hostile2.litmus" > "$tmp/hr.list" 2> "$tmp/err" ||
    bad "hostile names: runner emission failed: $(cat "$tmp/err")"
if javac -nowarn -d "$tmp/hr.classes" @"$tmp/hr.list" > "$tmp/javac" 2>&1; then
    cls=$(sed -n 's|.*/litmusc/generated/\(.*\)\.java$|litmusc.generated.\1|p' "$tmp/hr.list" | head -1)
    java -cp "$tmp/hr.classes" litmusc.runner.LitmusMain -s 100 -r 2 "$cls" > "$tmp/hist" 2>&1 ||
        bad "the hostile test's runner failed: $(head -5 "$tmp/hist")"
    grep -q '^iterations 200$' "$tmp/hist" || bad "the hostile test's runner printed no histogram"
else
    bad "javac rejects the hostile test's runner: $(head -10 "$tmp/javac")"
fi
"$L" run --target java -s 1000 -r 2 "$tmp/hostile.litmus" > "$tmp/log" 2>&1 ||
    bad "run --target java on the hostile test: $(tail -5 "$tmp/log")"
# No JDK on PATH: one error that says so (not the C compiler's --cc hint),
# exit status 3, before any test runs.
mkdir "$tmp/nojdk"
PATH="$tmp/nojdk" "$L" run --target java "$tmp/good.litmus" > "$tmp/out" 2> "$tmp/err"
st=$?
[ "$st" -eq 3 ] || bad "run --target java without a JDK exited $st, not 3"
grep -q "^litmusc run: error: the java target needs a JDK (javac and java in PATH): cannot run 'javac'" \
    "$tmp/err" || bad "no JDK: wrong message: $(cat "$tmp/err")"
grep -q -- "--cc" "$tmp/err" && bad "no JDK: the message offers --cc, which the java target does not take"
[ "$fail" -eq 0 ] && echo "java_errors: ok"
exit "$fail"
