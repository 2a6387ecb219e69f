#!/bin/sh
# The JLS04 model (--model jls04) end to end: every case of tests/jls04 gets
# the verdict tests/jls04/expected.tsv records (Pugh's causality test cases,
# Manson's, jcstress samples); `models` lists jls04 and has no cat file to
# print; check-scheme and emit --target jcstress take it as their source
# model; bad input is refused with status 2 and a limit stops with status 3.
# Times are measured by bench/jls04_table1.sh, not asserted here.
set -u
here=$(cd "$(dirname "$0")" && pwd)
dir="$here/../jls04"
: "${LITMUSC:?set LITMUSC to the litmusc program}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
export LITMUSC_CACHE="$tmp/cache"
. "$(cd "$(dirname "$0")/.." && pwd)/seed_cache.sh"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# 1. Every case's verdict: allowed = some allowed state satisfies the
#    condition's proposition (Observation Sometimes or Always).
n=0
grep -v '^#' "$dir/expected.tsv" | while IFS='	' read -r file group documented want source; do
    [ "$file" = - ] && continue
    [ -f "$dir/$file" ] || { echo "FAIL: $file ($source) is missing"; continue; }
    out=$("$LITMUSC" model --model jls04 "$dir/$file" 2>&1)
    st=$?
    obs=$(echo "$out" | sed -n 's/^Observation [^ ]* \([A-Za-z]*\) .*/\1/p')
    case $obs in
    Sometimes|Always) got=allowed ;;
    Never) got=forbidden ;;
    *) got="no verdict (status $st: $(echo "$out" | head -1))" ;;
    esac
    [ "$got" = "$want" ] || echo "FAIL: $file ($source): jls04 says $got, expected $want"
done > "$tmp/verdicts"
cat "$tmp/verdicts"
fails=$((fails + $(grep -c '^FAIL' "$tmp/verdicts")))
n=$(grep -v '^#' "$dir/expected.tsv" | awk -F'\t' '$1 != "-"' | wc -l)
[ "$n" -ge 29 ] || fail "only $n cases in tests/jls04/expected.tsv"
# Every file of the folder is in the table, and the unsupported ones say why.
for f in "$dir"/*.litmus; do
    grep -q "^$(basename "$f")	" "$dir/expected.tsv" || fail "$(basename "$f") has no line in expected.tsv"
done
grep -v '^#' "$dir/expected.tsv" | awk -F'\t' '$1 == "-" && $4 != "unsupported" { print "FAIL: a case without a file is not marked unsupported: " $5 }' > "$tmp/unsup"
cat "$tmp/unsup"
fails=$((fails + $(grep -c '^FAIL' "$tmp/unsup")))

# 2. The herd block is the one every model prints; JAM21 is unchanged on
#    thin air (it allows CTC4, jls04 does not).
"$LITMUSC" model --model jls04 "$dir/CTC04.litmus" > "$tmp/c4" 2>&1
grep -q '^States 1$' "$tmp/c4" && grep -q '^0:r1=0; 1:r2=0;$' "$tmp/c4" && grep -q '^No$' "$tmp/c4" &&
    grep -q '^Observation CTC4 Never 0 4$' "$tmp/c4" || { fail "CTC4 under jls04:"; cat "$tmp/c4"; }
"$LITMUSC" model --model jam21 "$dir/CTC04.litmus" | grep -q '^Observation CTC4 Sometimes 1 4$' ||
    fail "CTC4 under jam21 is no longer Sometimes"
"$LITMUSC" model --model jls04 --json "$dir/CTC01.litmus" > "$tmp/json" 2>&1
grep -q '"model":{"name":"jls04","verdict":"ok","observation":"sometimes","positive":1,"negative":3' "$tmp/json" ||
    { fail "--json under jls04:"; cat "$tmp/json"; }

# 3. --notes: one justification per witness state (Pugh's for CTC 1).
"$LITMUSC" model --model jls04 --notes "$dir/CTC01.litmus" > "$tmp/notes" 2>&1
grep -q '^(\* CTC1: JLS04 justifies 0:r1=1; 1:r2=1; in 4 stages' "$tmp/notes" &&
    grep -q '^(\*   C2 = C1 + {Thread1:R y=1}  E2: Thread0: R x=0, W y=1; Thread1: R y=0, W x=0 \*)$' "$tmp/notes" ||
    { fail "--notes: CTC1's justification"; cat "$tmp/notes"; }
"$LITMUSC" model --model jls04 --notes "$dir/CTC04.litmus" | grep -q "JLS04 justifies no execution" ||
    fail "--notes: CTC4 says no justification exists"

# 4. litmusc models: listed, no cat file.
"$LITMUSC" models > "$tmp/models" 2>&1
grep -q '^  jls04 .*multi-execution' "$tmp/models" || { fail "models does not list jls04"; cat "$tmp/models"; }
"$LITMUSC" models --print jls04 > "$tmp/out" 2> "$tmp/err"
st=$?
[ "$st" -eq 2 ] && [ ! -s "$tmp/out" ] &&
    grep -q "'jls04' is a built-in multi-execution model: it has no cat file" "$tmp/err" ||
    fail "models --print jls04: status $st, $(cat "$tmp/err")"

# 5. check-scheme with jls04 as the source model: HotSpot's x86 scheme is
#    sound for every case the x86 back end can compile (it has no x86 for
#    >= and *, so CTC1, 8 and 9 are refused with that message).
for f in "$dir"/*.litmus; do
    "$LITMUSC" check-scheme --scheme java-x86-hotspot --source-model jls04 "$f" > "$tmp/cs" 2>&1
    st=$?
    if [ "$st" -eq 0 ]; then
        grep -q "^pass .*allowed by jls04$" "$tmp/cs" || fail "check-scheme $(basename "$f"): $(cat "$tmp/cs")"
    elif [ "$st" -ne 2 ] || ! grep -q "no x86 instruction in litmusc's herd subset computes" "$tmp/cs"; then
        fail "check-scheme $(basename "$f"): status $st: $(cat "$tmp/cs")"
    fi
done

# 6. jcstress: the @Outcomes are jls04's states.
"$LITMUSC" emit --target jcstress --model jls04 -o "$tmp/jcs" "$dir/CTC04.litmus" "$dir/CTC01.litmus" > /dev/null 2>&1 ||
    fail "emit --target jcstress --model jls04"
j4="$tmp/jcs/litmusc/generated/CTC4.java"
j1="$tmp/jcs/litmusc/generated/CTC1.java"
[ "$(grep -c '^@Outcome(id' "$j4" 2>/dev/null)" = 1 ] && grep -q '^@Outcome(id = "0, 0", expect = Expect.ACCEPTABLE, desc = "allowed by jls04")' "$j4" ||
    fail "CTC4's jcstress outcomes are not jls04's one state"
grep -q '^@Outcome(id = "1, 1", expect = Expect.ACCEPTABLE_INTERESTING' "$j1" 2>/dev/null ||
    fail "CTC1's jcstress outcomes lack the allowed 1, 1"

# refuses STATUS FILE PATTERN WHAT: jls04 stops on FILE with STATUS, prints
# no block, and says PATTERN (a grep pattern) on stderr.
refuses() {
    "$LITMUSC" model --model jls04 "$2" > "$tmp/out" 2> "$tmp/err"
    st=$?
    [ "$st" -eq "$1" ] && [ ! -s "$tmp/out" ] && grep -q "$3" "$tmp/err" ||
        fail "$4: status $st, $(cat "$tmp/err")"
}

# 7. Bad input: VarHandle modes, a field both plain and volatile, an X86 test.
cat > "$tmp/opaque.litmus" <<'LIT'
Java Opaque
{ x=0; 0:X=x; 1:X=x; }
Thread0 { X.setOpaque(1); }
Thread1 { int r0 = X.getOpaque(); }
exists (1:r0=1)
LIT
refuses 2 "$tmp/opaque.litmus" "^litmusc model: $tmp/opaque.litmus:3:11: error: jls04: opaque accesses came with Java 9's VarHandles" \
    "opaque under jls04"
cat > "$tmp/mixed.litmus" <<'LIT'
Java Mixed
{ x=0; 0:X=x; 1:X=x; }
Thread0 { X.setVolatile(1); }
Thread1 { int r0 = X.get(); }
exists (1:r0=1)
LIT
refuses 2 "$tmp/mixed.litmus" "mixed.litmus:4:11: error: jls04: x is accessed both as a plain and as a volatile field (line 3 and here)" \
    "mixed modes under jls04"
refuses 2 "$here/../../examples/x86/SB.litmus" "error: jls04 is a model of Java programs, not of X86 tests" \
    "an x86 test under jls04"

# 8. A limit: eight reads that may each see one of nine writes make 9^8
#    well-formed executions, past the 50000 jls04 takes: status 3, no block.
cat > "$tmp/many.litmus" <<'LIT'
Java Many
{ x=0; 0:X=x; 1:X=x; }
Thread0 { X.set(1); X.set(2); X.set(3); X.set(4); X.set(5); X.set(6); X.set(7); X.set(8); }
Thread1 { int a = X.get(); int b = X.get(); int c = X.get(); int d = X.get(); int e = X.get(); int f = X.get(); int g = X.get(); int h = X.get(); }
exists (1:a=1)
LIT
refuses 3 "$tmp/many.litmus" "error: jls04: the test has more than 50000 well-formed executions" "the execution limit"

if [ "$fails" -ne 0 ]; then
    echo "jls04_ctc: $fails failure(s)"
    exit 1
fi
echo "jls04_ctc: ok ($n cases)"
