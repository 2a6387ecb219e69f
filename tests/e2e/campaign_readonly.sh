#!/bin/sh
# campaign report on a database in a folder nobody may write (a CI
# artifact, a shared read-only mount): WAL would need a -shm file there, so
# the report opens the database read-only and immutable, and works.
# As root every folder is writable, so the report runs as nobody then.
set -u
here=$(cd "$(dirname "$0")" && pwd)
L=${LITMUSC:?LITMUSC must name the program under test}
ex="$here/../../examples"
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

as_user=
if [ "$(id -u)" -eq 0 ]; then
    command -v setpriv > /dev/null || { echo "SKIP: root without setpriv cannot drop write access"; exit 77; }
    as_user="setpriv --reuid=65534 --regid=65534 --clear-groups"
fi
chmod 755 "$tmp"
mkdir "$tmp/ro"
"$L" campaign run --db "$tmp/ro/c.db" --quiet --targets x86 -s 200 -r 1 "$ex/x86/SB.litmus" > /dev/null 2>&1 ||
    fail "campaign run"
chmod -R a-w "$tmp/ro"
chmod a+r "$tmp/ro/c.db"
$as_user "$L" campaign report --db "$tmp/ro/c.db" > "$tmp/out" 2> "$tmp/err" || fail "report in a read-only folder: exit $?: $(cat "$tmp/err")"
grep -q "1 runs: 1 finished" "$tmp/out" || fail "report in a read-only folder does not count the run: $(cat "$tmp/out")"
$as_user "$L" campaign report --db "$tmp/ro/c.db" --json > "$tmp/out.json" 2> "$tmp/err" || fail "report --json in a read-only folder: $(cat "$tmp/err")"
python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$tmp/out.json" || fail "report --json in a read-only folder is not JSON"
[ "$fails" -eq 0 ] || { echo "campaign_readonly: $fails failure(s)"; exit 1; }
echo "campaign_readonly: reports read a database in a read-only folder"
