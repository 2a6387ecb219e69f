#!/bin/sh
# Every --json output follows the one schema, harness/litmusc.schema.json:
# model (X86, C with a race, Java, a symbolic test, a user's model, jls04), races
# (C with and without races, Java, X86; --detector all and one), run on each target (x86, c11 with
# a race its states imply, java), a run stopped at its time limit, and an
# empty result list.  Validated with python's jsonschema (Debian's
# python3-jsonschema, which `make deps` installs).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../corpora.sh"
L=${LITMUSC:?LITMUSC must name the program under test}
schema="$corpora_root/harness/litmusc.schema.json"
py=""
for p in /usr/bin/python3 python3; do
    if "$p" -c 'import jsonschema' >/dev/null 2>&1; then
        py=$p
        break
    fi
done
[ -n "$py" ] || { echo "SKIP: no python3 with the jsonschema module (apt-get install python3-jsonschema)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
export LITMUSC_CACHE="$tmp/cache"
. "$(cd "$(dirname "$0")/.." && pwd)/seed_cache.sh"
n=0
own="$corpora_root/tests/corpus"
addr=$(ls "$own"/c11/classic/MP+porlxrel+addrrlxrlx.litmus)

"$L" model --json "$corpus_sb" "$corpus_mp" > "$tmp/out$((n=n+1)).json"
"$L" model --json $(ls "$own"/c11/na2/*.litmus | head -3) "$addr" > "$tmp/out$((n=n+1)).json"
"$L" model --json $(ls "$own"/java/classic/*.litmus | head -3) > "$tmp/out$((n=n+1)).json"
"$L" model --json --model jls04 "$here/../jls04/CTC01.litmus" "$here/../jls04/CTC04.litmus" > "$tmp/out$((n=n+1)).json"
"$L" model --json --model sc $(ls "$own"/x86/rmw/*.litmus | head -2) > "$tmp/out$((n=n+1)).json"
"$L" model --json --cut-loops "$here/../loops/cut/xchg-lock.litmus" "$here/../loops/corpus/MP+spin+na+relacq.litmus" > "$tmp/out$((n=n+1)).json" 2> /dev/null
cat > "$tmp/lbodd.litmus" <<'LIT'
C LbOdd
{ }
P0(atomic_int* x, atomic_int* y) { int r0 = atomic_load_explicit(x, memory_order_relaxed); atomic_store_explicit(y, r0 * 2 + 1, memory_order_relaxed); }
P1(atomic_int* x, atomic_int* y) { int r1 = atomic_load_explicit(y, memory_order_relaxed); atomic_store_explicit(x, r1, memory_order_relaxed); }
exists (0:r0=1 /\ 1:r1=1)
LIT
"$L" model --json "$tmp/lbodd.litmus" > "$tmp/out$((n=n+1)).json"
printf '"mine"\ninclude "x86tso.cat"\nflag ~empty rf as seen-rf\n' > "$tmp/flags.cat"
"$L" model --json --model "$tmp/flags.cat" "$corpus_sb" > "$tmp/out$((n=n+1)).json"
"$L" races --json $(ls "$own"/c11/na2/*.litmus | head -4) "$addr" > "$tmp/races.json"
"$L" races --json $(ls "$own"/java/plain/*.litmus | head -2) "$corpus_sb" > "$tmp/out$((n=n+1)).json"
grep -q '"races":\[{"a":{' "$tmp/races.json" || { echo "FAIL: races --json lists no racing pair"; exit 1; }
"$L" races --json --detector all $(ls "$own"/c11/na2/*.litmus | head -4) "$addr" "$corpus_sb" > "$tmp/out$((n=n+1)).json"
grep -q '"why":\[{"a":{' "$tmp/out$n.json" || { echo "FAIL: races --detector all --json explains no pair"; exit 1; }
"$L" races --json --detector hybrid $(ls "$own"/java/plain/*.litmus | head -2) > "$tmp/out$((n=n+1)).json"
"$L" run --json -s 500 -r 1 "$corpus_sb" "$own/x86/rmw/$(ls "$own"/x86/rmw | grep -m1 litmus)" > "$tmp/out$((n=n+1)).json"
racy=$(ls "$own"/c11/na2/MP+ponarel+poconna.litmus)
"$L" run --json --target c11 -s 500 -r 1 "$addr" "$corpus_mp" "$racy" > "$tmp/out$((n=n+1)).json"
grep -q '"races_seen":\[' "$tmp/out$n.json" || { echo "FAIL: run --json of a racy C test has no races_seen"; exit 1; }
if command -v javac >/dev/null 2>&1; then
    "$L" run --json --target java -s 500 -r 1 "$own/java/classic/SB.litmus" > "$tmp/out$((n=n+1)).json"
else
    echo "SKIP: no javac: run --target java --json not validated"
fi
"$L" run --json -s 1000000 -r 100000 --timeout 1 "$corpus_sb" > "$tmp/out$((n=n+1)).json" 2> /dev/null
last="$tmp/out$n.json"
grep -q '"status":"timed-out"' "$last" || { echo "FAIL: the timed-out run is not marked"; exit 1; }
grep -q '"verdict":"partial"\|"verdict":"forbidden"' "$last" || { echo "FAIL: the timed-out run's verdict is not partial"; exit 1; }
"$L" run --json --filter '^nothing$' "$corpus_sb" > "$tmp/out$((n=n+1)).json" 2> /dev/null

"$py" - "$schema" "$tmp/races.json" "$tmp"/out*.json <<'PY'
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft7Validator.check_schema(schema)
v = jsonschema.Draft7Validator(schema)
bad = 0
results = 0
for f in sys.argv[2:]:
    doc = json.load(open(f))
    errs = sorted(v.iter_errors(doc), key=lambda e: list(e.path))
    for e in errs[:5]:
        print("FAIL: %s: %s at %s" % (f, e.message, "/".join(map(str, e.path))))
    bad += len(errs) > 0
    results += len(doc["results"])
# the schema must refuse what it is there to refuse: the old spellings
first = json.load(open(sys.argv[2]))
for path, old in ((("model", "verdict"), "Ok"), (("model", "observation"), "Sometimes"),
                  (("model", "positive"), "1")):
    doc = json.loads(json.dumps(first))
    doc["results"][0][path[0]][path[1]] = old
    if v.is_valid(doc):
        print("FAIL: the schema accepts %s = %r" % ("/".join(path), old))
        bad += 1
# and a racing pair's words: R, W or RW, and the modes' own spellings
races = json.load(open(sys.argv[2]))
for key, old in (("access", "write"), ("mode", "relaxed")):
    doc = json.loads(json.dumps(races))
    pair = next(r for r in doc["results"] if r["races"])["races"][0]
    pair["a"][key] = old
    if v.is_valid(doc):
        print("FAIL: the schema accepts a race's %s = %r" % (key, old))
        bad += 1
print("json_schema: %d outputs (%d results) checked, %d invalid" % (len(sys.argv) - 2, results, bad))
sys.exit(1 if bad else 0)
PY
