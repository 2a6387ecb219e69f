#!/bin/sh
# Benchmark: check-scheme over every C and Java test of the corpus, one
# process per test, with the standard schemes (c11-x86-xchg for C,
# java-x86-hotspot for Java).  Prints the total wall time, the pass/fail
# counts and the ten slowest tests.  Usage: LITMUSC=bin/litmusc sh bench/scheme_bench.sh
# (SCHEME_C / SCHEME_JAVA override the schemes; TIMEOUT the per-test limit, 120 s).
set -u
here=$(cd "$(dirname "$0")" && pwd)
corpus="$here/../../shared/corpus"
L=${LITMUSC:-$here/../bin/litmusc}
sc=${SCHEME_C:-c11-x86-xchg}
sj=${SCHEME_JAVA:-java-x86-hotspot}
limit=${TIMEOUT:-120}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
now() { date +%s.%N; }
pass=0 fail=0 err=0 n=0
start=$(now)
for f in $(find "$corpus/c11" "$corpus/java" -name '*.litmus' | sort); do
    case $f in "$corpus/c11"/*) s=$sc ;; *) s=$sj ;; esac
    t0=$(now)
    timeout "$limit" "$L" check-scheme -q --scheme "$s" "$f" >"$tmp/out" 2>&1
    st=$?
    t1=$(now)
    n=$((n + 1))
    case $st in
    0) pass=$((pass + 1)) ;;
    1) fail=$((fail + 1)); echo "fail ${f#$corpus/}" >>"$tmp/fails" ;;
    *) err=$((err + 1)); echo "error($st) ${f#$corpus/}: $(grep -v '^check-scheme' "$tmp/out" | head -1)" >>"$tmp/fails" ;;
    esac
    echo "$(echo "$t1 - $t0" | bc) ${f#$corpus/}" >>"$tmp/times"
done
end=$(now)
echo "check-scheme over $n corpus tests (C: $sc, Java: $sj)"
echo "total wall time: $(echo "$end - $start" | bc) s"
echo "pass $pass, fail $fail, error/timeout $err"
echo "slowest tests (s):"
sort -rn "$tmp/times" | head -10 | sed 's/^/  /'
[ -f "$tmp/fails" ] && { echo "failures and errors:"; sed 's/^/  /' "$tmp/fails"; }
exit 0
