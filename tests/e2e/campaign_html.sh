#!/bin/sh
# The campaign's HTML report in a real browser: headless Chromium loads the
# file (no network), runs its script, and the DOM it dumps must hold the
# summary, one table row and one SVG histogram per run, the three colours
# of states, and the table sorted on a column when asked (#sort-N).  The
# report, the DOM and a screenshot are kept in build/test-output/campaign_html.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../corpora.sh"
L=${LITMUSC:?LITMUSC must name the program under test}
browser=""
for b in chromium chromium-browser google-chrome; do
    command -v "$b" >/dev/null 2>&1 && { browser=$b; break; }
done
[ -n "$browser" ] || { echo "SKIP: no Chromium (apt-get install chromium)"; exit 77; }
out="$corpora_root/build/test-output/campaign_html"
rm -rf "$out"
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
export LITMUSC_CACHE="$tmp/cache"
. "$(cd "$(dirname "$0")/.." && pwd)/seed_cache.sh"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
own="$corpora_root/tests/corpus"

# a campaign with allowed, forbidden (SB under sc) and unseen states (IRIW
# in a few hundred iterations), and a file name that needs escaping
cp "$own/x86/classic/MP.litmus" "$tmp/odd<b>&\"x\".litmus"
"$L" campaign run --db "$tmp/c.db" --quiet -s 2000 -r 4 "$corpus_sb" "$tmp/odd<b>&\"x\".litmus" > /dev/null 2>&1
"$L" campaign run --db "$tmp/c.db" --quiet -s 100 -r 1 "$own/x86/four/IRIW.litmus" > /dev/null 2>&1
"$L" campaign run --db "$tmp/c.db" --quiet --model sc -s 2000 -r 4 "$corpus_sb" > /dev/null 2>&1
"$L" campaign report --db "$tmp/c.db" --html "$out/report.html" > "$out/summary.txt" 2>&1
[ -s "$out/report.html" ] || { fail "no report"; exit 1; }
runs=$(sed -n 's/.* \([0-9]*\) runs: .*/\1/p' "$out/summary.txt")

chrome() {  # URL -> DOM on stdout
    timeout 90 "$browser" --headless=new --no-sandbox --disable-gpu --no-first-run --disable-extensions \
        --user-data-dir="$tmp/profile" --virtual-time-budget=2000 "$@" 2> "$tmp/chrome.err"
}
chrome --dump-dom "file://$out/report.html" > "$out/dom.html" || fail "chromium could not load the report: $(tail -3 "$tmp/chrome.err")"
chrome --screenshot="$out/report.png" --window-size=1280,1800 "file://$out/report.html" > /dev/null ||
    fail "no screenshot: $(tail -3 "$tmp/chrome.err")"
[ -s "$out/report.png" ] || fail "the screenshot is empty"
dom="$out/dom.html"
grep -q '<td id="sum-runs">'"$runs"'</td>' "$dom" || fail "the summary does not say $runs runs"
grep -q '<td id="sum-forbidden">1</td>' "$dom" || fail "the summary does not count the run with a forbidden state"
rows=$(grep -c '<tr class="[a-z]*"><td><a href="#run-' "$dom")
[ "$rows" -eq "$runs" ] || fail "$rows table rows for $runs runs"
svgs=$(grep -o '<svg class="histogram"' "$dom" | wc -l)
[ "$svgs" -eq "$runs" ] || fail "$svgs histograms for $runs runs"
grep -q '<rect class="forbidden"' "$dom" || fail "no forbidden bar"
grep -q '<rect class="allowed"' "$dom" || fail "no allowed bar"
grep -q '<rect class="unseen"' "$dom" || fail "no unseen bar"
grep -q '<title>0:EAX=0; 1:EAX=0; [0-9]* (forbidden)</title>' "$dom" || fail "the forbidden bar has no count on hover"
grep -q 'odd&lt;b&gt;&amp;"x".litmus' "$dom" || grep -q 'odd&lt;b&gt;&amp;&quot;x&quot;.litmus' "$dom" ||
    fail "the odd file name is not escaped"
grep -q 'odd<b>' "$dom" && fail "the odd file name became markup"
# sorted on iterations (column 7), descending: the first row has the most
chrome --dump-dom "file://$out/report.html#sort-7-desc" > "$out/dom-sorted.html" || fail "sorted load"
first=$(grep -o '<tr class="[a-z]*"><td><a href="#run-[0-9]*">[^<]*</a></td>.*' "$out/dom-sorted.html" | head -1 |
    sed 's/<\/td>/\n/g' | sed -n '8p' | sed 's/.*>//')
max=$(grep -o '<tr class="[a-z]*"><td><a href="#run-[0-9]*">[^<]*</a></td>.*' "$dom" |
    while read -r r; do echo "$r" | sed 's/<\/td>/\n/g' | sed -n '8p' | sed 's/.*>//'; done | sort -n | tail -1)
[ -n "$first" ] && [ "$first" = "$max" ] || fail "sorting on iterations: first row has '$first', the most is '$max'"
[ "$fails" -eq 0 ] || { echo "campaign_html: $fails failure(s) (kept in $out)"; exit 1; }
echo "campaign_html: $runs runs rendered by $browser: summary, $rows rows, $svgs histograms, sorting; screenshot in build/test-output/campaign_html/report.png"
