#!/bin/sh
# campaign parallel with file names that GNU parallel would read as its own
# replacement strings: {=perl=} must not run and {} must not be rewritten;
# the names reach parallel only as input data.
set -u
L=${LITMUSC:?LITMUSC must name the program under test}
here=$(cd "$(dirname "$0")" && pwd)
command -v parallel >/dev/null 2>&1 || { echo "SKIP: no GNU parallel (apt-get install parallel)"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3 to read the databases with"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
export LITMUSC_CACHE="$tmp/cache"
. "$(cd "$(dirname "$0")/.." && pwd)/seed_cache.sh"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
src="$here/../corpus/x86/classic/MP.litmus"
mkdir "$tmp/in"
evil='MP{=system("id > PWNED_ID")=}.litmus'
cp "$src" "$tmp/in/$evil"
cp "$here/../corpus/x86/classic/SB.litmus" "$tmp/in/SB{}.litmus"
cd "$tmp" || exit 1
"$L" campaign parallel --db "$tmp/p.db" --jobs 1 --shards 1 -s 100 -r 1 "in/$evil" "in/SB{}.litmus" \
    > "$tmp/p.out" 2> "$tmp/p.err"
st=$?
[ ! -e "$tmp/PWNED_ID" ] && [ ! -e "$tmp/in/PWNED_ID" ] || fail "parallel ran the Perl in a file name"
[ "$st" -eq 0 ] || fail "campaign parallel: exit $st: $(tail -5 "$tmp/p.err")"
files=$(python3 -c "import sqlite3,sys; print('\n'.join(sorted(set(r[0] for r in sqlite3.connect(sys.argv[1]).execute('select t.path from runs r join tests t on t.id = r.test_id where r.status = \"done\"')))))" "$tmp/p.db" 2>&1)
case $files in
*"$evil"*) ;;
*) fail "no run of the file named $evil: $files" ;;
esac
case $files in
*'SB{}.litmus'*) ;;
*) fail "no run of the file named SB{}.litmus (rewritten?): $files" ;;
esac
[ "$fails" -eq 0 ] || { echo "campaign_parallel_names: $fails failure(s)"; exit 1; }
echo "campaign_parallel_names: names with {=...=} and {} reached the shards as data"
