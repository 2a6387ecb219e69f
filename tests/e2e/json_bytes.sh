#!/bin/sh
# A test whose path holds a byte that is not UTF-8 (0xff) and a control
# byte: `run --json` and `campaign report --json` stay valid JSON (the
# bytes become U+FFFD) and the HTML report shows no raw control byte.
set -u
L=${LITMUSC:?LITMUSC must name the program under test}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LITMUSC_CACHE="$tmp/cache"
. "$(cd "$(dirname "$0")/.." && pwd)/seed_cache.sh"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3 to read the JSON back"; exit 77; }
dir="$tmp/$(printf 'a\377b\001c')"
mkdir -p "$dir"
cp "$here/../../examples/x86/SB.litmus" "$dir/SB.litmus"
valid_json() { python3 -c 'import json, sys; json.loads(sys.stdin.buffer.read().decode("utf-8"))'; }

"$L" run --json -s 1000 -r 1 "$dir/SB.litmus" >"$tmp/run.json" 2>"$tmp/err" || fail "run --json: exit $?: $(head -2 "$tmp/err")"
valid_json <"$tmp/run.json" 2>"$tmp/py" || fail "run --json is not valid UTF-8 JSON: $(tail -1 "$tmp/py")"
grep -q 'a\\ufffdb\\u0001c' "$tmp/run.json" || fail "run --json: the path's bytes are not escaped"

"$L" campaign run --db "$tmp/c.db" --quiet -s 1000 -r 1 "$dir/SB.litmus" >/dev/null 2>"$tmp/err" || fail "campaign run: $(head -2 "$tmp/err")"
"$L" campaign report --db "$tmp/c.db" --json >"$tmp/rep.json" 2>"$tmp/err" || fail "campaign report --json: $(head -2 "$tmp/err")"
valid_json <"$tmp/rep.json" 2>"$tmp/py" || fail "campaign report --json is not valid UTF-8 JSON: $(tail -1 "$tmp/py")"
"$L" campaign report --db "$tmp/c.db" --html "$tmp/rep.html" >/dev/null 2>"$tmp/err" || fail "campaign report --html: $(head -2 "$tmp/err")"
if LC_ALL=C grep -q "$(printf '[\001\377]')" "$tmp/rep.html"; then fail "the HTML report holds a raw control or 0xff byte"; fi
grep -q 'a&#xfffd;b&#xfffd;c' "$tmp/rep.html" || fail "the HTML report does not show the path's bytes as U+FFFD"
[ "$fails" -eq 0 ] || exit 1
echo "json_bytes: ok"
