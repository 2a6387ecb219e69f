#!/bin/sh
# check-scheme --herd PATH: the target side comes from herd7's output, read
# back through the register map.  A stand-in herd7 prints store-buffering
# states on whatever x86 registers the compiled test's condition names
# (all four for a test without a fence, three with one), so the test checks
# the read-back and the inclusion, not herd itself.
set -u
here=$(cd "$(dirname "$0")" && pwd)
ex="$here/../../examples"
L=${LITMUSC:?LITMUSC must name the program under test}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

cat >"$tmp/herd7" <<'HERD'
#!/bin/sh
f=$1
cond=$(grep '^exists' "$f")
a=$(printf '%s\n' "$cond" | sed 's/^exists (\([0-9]*:[A-Z]*\)=0 .*/\1/')
b=$(printf '%s\n' "$cond" | sed 's/.* \([0-9]*:[A-Z]*\)=0)$/\1/')
name=$(head -1 "$f" | cut -d' ' -f2)
if grep -q 'MFENCE\|XCHG\|LOCK' "$f"; then
    printf 'Test %s Allowed\nStates 3\n%s=0; %s=1;\n%s=1; %s=0;\n%s=1; %s=1;\nNo\n' "$name" "$a" "$b" "$a" "$b" "$a" "$b"
else
    printf 'Test %s Allowed\nStates 4\n%s=0; %s=0;\n%s=0; %s=1;\n%s=1; %s=0;\n%s=1; %s=1;\nOk\n' "$name" "$a" "$b" "$a" "$b" "$a" "$b" "$a" "$b"
fi
HERD
chmod +x "$tmp/herd7"

out=$("$L" check-scheme --herd "$tmp/herd7" --scheme broken-c11-x86-plainsc "$ex/c/SB+sc.litmus" 2>&1)
st=$?
[ "$st" -eq 1 ] || fail "broken scheme via herd: exit $st: $out"
printf '%s\n' "$out" | grep -qxF '  witness: 0:r0=0 /\ 1:r0=0' || fail "broken scheme via herd: no witness: $out"
printf '%s\n' "$out" | grep -q 'under herd7' || fail "the failure does not say herd7 computed it: $out"

out=$("$L" check-scheme --herd "$tmp/herd7" --scheme c11-x86-mfence "$ex/c/SB+sc.litmus" 2>&1)
st=$?
[ "$st" -eq 0 ] || fail "sound scheme via herd: exit $st: $out"

# A herd that fails is an environment failure (3), not a verdict.
printf '#!/bin/sh\necho "Fatal error" >&2\nexit 2\n' >"$tmp/badherd"
chmod +x "$tmp/badherd"
out=$("$L" check-scheme --herd "$tmp/badherd" --scheme c11-x86-mfence "$ex/c/SB+sc.litmus" 2>&1)
st=$?
[ "$st" -eq 3 ] || fail "failing herd7: exit $st, want 3"
printf '%s\n' "$out" | grep -q 'exited with status 2: Fatal error' || fail "failing herd7: its error is not passed on: $out"

# The test text goes to a private folder under $TMPDIR, gone afterwards,
# and a herd7 that hangs is stopped at --timeout.
mkdir "$tmp/scratch"
printf '#!/bin/sh\nls -d "$(dirname "$1")" > "%s/seen"\nsleep 30\n' "$tmp" >"$tmp/slowherd"
chmod +x "$tmp/slowherd"
start=$(date +%s)
out=$(TMPDIR="$tmp/scratch" "$L" check-scheme --herd "$tmp/slowherd" --timeout 1 --scheme c11-x86-mfence "$ex/c/SB+sc.litmus" 2>&1)
st=$?
took=$(( $(date +%s) - start ))
[ "$st" -eq 3 ] || fail "hanging herd7: exit $st, want 3: $out"
printf '%s\n' "$out" | grep -q 'ran past the 1 s time limit' || fail "hanging herd7: no time-limit message: $out"
[ "$took" -lt 20 ] || fail "hanging herd7 was not stopped at the time limit ($took s)"
grep -q "^$tmp/scratch/litmusc-herd-" "$tmp/seen" 2>/dev/null || fail "the test was not under \$TMPDIR: $(cat "$tmp/seen" 2>&1)"
[ -z "$(ls -A "$tmp/scratch")" ] || fail "the temporary folder was left behind: $(ls -A "$tmp/scratch")"
"$L" check-scheme --herd "$tmp/herd7" --timeout nope --scheme c11-x86-mfence "$ex/c/SB+sc.litmus" >/dev/null 2>&1
st=$?
[ "$st" -eq 2 ] || fail "--timeout nope: exit $st, want 2"

[ "$fails" -eq 0 ] && echo "scheme_herd: all checks passed"
[ "$fails" -eq 0 ]
