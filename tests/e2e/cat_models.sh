#!/bin/sh
# `litmusc model --model X` with cat files: every malformed model in
# tests/bad_cat is refused with exit status 2 and the file:line:col its
# second line announces; a user's model file runs, with includes found
# beside it first and then among the built-in files; built-in names and
# their files agree on herd's verdicts for a few corpus tests; an unknown
# name and the name of an include file are refused.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../corpora.sh"
corpus="$corpora_root/tests/corpus"
bad="$here/../bad_cat"
: "${LITMUSC:?set LITMUSC to the litmusc program}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

sb=$corpus_sb
mp=$corpus_mp
[ -f "$sb" ] && [ -f "$mp" ] || { echo "cat_models: corpus tests missing under $corpus"; exit 1; }

# 1. Malformed models.
for f in "$bad"/*.cat; do
    name=$(basename "$f")
    pos=$(sed -n '2s/^(\* expect \([0-9]*:[0-9]*\) .*/\1/p' "$f")
    [ -n "$pos" ] || { fail "$name has no expect line"; continue; }
    "$LITMUSC" model --model "$f" "$sb" > "$tmp/out" 2> "$tmp/err"
    rc=$?
    [ "$rc" -eq 2 ] || fail "$name: exit status $rc, expected 2"
    grep -q "$name:$pos: error: " "$tmp/err" || fail "$name: no '$name:$pos: error:' in: $(head -2 "$tmp/err")"
    grep -q '^Test ' "$tmp/out" && fail "$name: printed a result"
done

# A recursion without end is an error under a smaller stack limit too: the
# budget follows the process's own limit rather than assuming 8 MB.
( ulimit -s 1024 2>/dev/null || exit 0
  "$LITMUSC" model --model "$bad/deep_recursion.cat" "$sb" > "$tmp/out" 2> "$tmp/err"
  echo $? > "$tmp/rc" )
if [ -f "$tmp/rc" ]; then
    rc=$(cat "$tmp/rc")
    [ "$rc" -eq 2 ] || fail "deep_recursion.cat under a 1 MB stack: exit status $rc, expected 2"
    grep -q "deep_recursion.cat:3:21: error: calls nested too deeply" "$tmp/err" ||
        fail "deep_recursion.cat under a 1 MB stack: $(head -2 "$tmp/err")"
fi

# 2. A user's model in its own folder, including a file beside it and a
# built-in library file.
mkdir -p "$tmp/user"
cat > "$tmp/user/mine.cat" <<'EOF'
"my TSO"
include "cos.cat"
include "helpers.cat"
acyclic po-loc | rf | co | fr as uniproc
acyclic my-ghb as tso
EOF
cat > "$tmp/user/helpers.cat" <<'EOF'
"helpers"
let my-ghb = (po \ (W * R)) | fencerel(MFENCE) | rfe | co | fr
EOF
"$LITMUSC" model --model "$tmp/user/mine.cat" "$sb" "$mp" > "$tmp/out" 2> "$tmp/err"
rc=$?
[ "$rc" -eq 0 ] || fail "user model: exit status $rc: $(head -3 "$tmp/err")"
grep -q '^Observation SB Sometimes 1 3$' "$tmp/out" || fail "user model: SB should be Sometimes 1 3"
grep -q '^Observation MP Never 0 3$' "$tmp/out" || fail "user model: MP should be Never 0 3"

# 3. Built-in names and the same files by path give herd's observations.
check_obs() {  # model test expected-observation-line
    "$LITMUSC" model --model "$1" "$2" > "$tmp/out" 2> "$tmp/err"
    grep -qx "$3" "$tmp/out" || fail "$1 on $(basename "$2"): expected '$3', got '$(grep '^Observation' "$tmp/out")' $(head -2 "$tmp/err")"
}
check_obs x86tso "$sb" "Observation SB Sometimes 1 3"
check_obs sc "$sb" "Observation SB Never 0 3"
c=$(find "$corpus/c11" -name 'MP+*.litmus' | sort | head -1)
if [ -n "$c" ] && [ -s "${c%.litmus}.rc11.herd" ]; then
    check_obs rc11 "$c" "$(grep '^Observation' "${c%.litmus}.rc11.herd")"
else
    fail "no C MP test with an rc11 verdict under $corpus/c11"
fi
j=$(find "$corpus/java" -name 'SB*.litmus' | sort | head -1)
if [ -n "$j" ] && [ -s "${j%.litmus}.jam21.herd" ]; then
    check_obs jam21 "$j" "$(grep '^Observation' "${j%.litmus}.jam21.herd")"
else
    fail "no Java SB test with a jam21 verdict under $corpus/java"
fi

# 4. A model that names the unknown.
"$LITMUSC" model --model no-such-model "$sb" > /dev/null 2> "$tmp/err"
rc=$?
[ "$rc" -eq 2 ] || fail "unknown built-in model: exit status $rc, expected 2"
grep -q "unknown model 'no-such-model'" "$tmp/err" || fail "unknown built-in model: $(cat "$tmp/err")"

# 5. The embedded files the models include (cos, stdlib, fences, ...) are
# no models: by name they are refused (a verdict from one would mean
# nothing), for model and races alike; as a .cat file a user may still run
# one on purpose.
for inc in cos stdlib fences; do
    for cmd in model races; do
        "$LITMUSC" $cmd --model $inc "$sb" > "$tmp/out" 2> "$tmp/err"
        rc=$?
        [ "$rc" -eq 2 ] || fail "$cmd --model $inc: exit status $rc, expected 2"
        [ ! -s "$tmp/out" ] || fail "$cmd --model $inc: printed $(head -3 "$tmp/out")"
        [ "$(cat "$tmp/err")" = "litmusc $cmd: error: '$inc' is a file the built-in models include, not a model (built-in models: sc, x86tso, x86tso-rmw, rc11, rc11-lb, jam21, aarch64, jls04; or give a .cat file)" ] ||
            fail "$cmd --model $inc: $(cat "$tmp/err")"
    done
done

if [ "$fails" -ne 0 ]; then
    echo "cat_models: $fails failure(s)"
    exit 1
fi
echo "cat_models: ok"
