#!/bin/sh
# The build cache against another user who controls the folder above it
# (XDG_CACHE_HOME in a folder `nobody` owns): while litmusc runs as root,
# nobody swaps the cache folder's name between root's folder and his own,
# which holds a script under the cached runner's name with its digest.
# Root must never run it.  Then a plain link to a sticky world-writable
# folder in place of the cache: refused, and the folder keeps its mode.
# Needs root and the user nobody; 2 x 30 tries, a few seconds.
set -u
L=${LITMUSC:?LITMUSC must name the program under test}
here=$(cd "$(dirname "$0")" && pwd)
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (the victim) and nobody (the other user)"; exit 77; }
id nobody >/dev/null 2>&1 || { echo "SKIP: no user nobody"; exit 77; }
command -v setpriv >/dev/null 2>&1 || { echo "SKIP: no setpriv"; exit 77; }
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
# a python3 that nobody may run (root's own may sit in a folder closed to him)
py=
for p in /usr/bin/python3 /usr/local/bin/python3 "$(command -v python3)"; do
    [ -n "$p" ] && as_nobody "$p" -c pass 2>/dev/null && { py=$p; break; }
done
[ -n "$py" ] || { echo "SKIP: no python3 that nobody can run, for the swapping loop"; exit 77; }
tmp=$(mktemp -d)
swapper=
cleanup() { [ -n "$swapper" ] && kill "$swapper" 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT INT TERM
chmod 755 "$tmp"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
test_file="$here/../corpus/x86/classic/SB.litmus"
x="$tmp/x"
mkdir "$x"
chown nobody "$x"
# root's cache, as an earlier run under XDG_CACHE_HOME=$x made it
env -u LITMUSC_CACHE XDG_CACHE_HOME="$x" "$L" run -s 10 "$test_file" > /dev/null 2>&1 || fail "first run"
[ -d "$x/litmusc" ] || { echo "FAIL: no cache folder $x/litmusc"; exit 1; }
key=$(cd "$x/litmusc" && ls ./*.exe | head -1)
key=${key#./}
[ -n "$key" ] || { echo "FAIL: no cached runner"; exit 1; }
# nobody's folder with a script under the runner's name, and its digest
as_nobody mkdir "$x/evil"
printf '#!/bin/sh\nid > %s/PWNED\n' "$tmp" | as_nobody sh -c "cat > '$x/evil/$key'"
as_nobody chmod 755 "$x/evil/$key"
md5sum "$x/evil/$key" | cut -c1-32 | tr -d '\n' | as_nobody sh -c "cat > '$x/evil/$key.md5'"
mv "$x/litmusc" "$x/real"
chown nobody "$x" # the folder stays nobody's; root's cache folder is root's

# swaps NAME and OTHER in $x atomically (renameat2 RENAME_EXCHANGE) until STOP exists
cat > "$tmp/swap.py" <<'PY'
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
d, a, b, stop = sys.argv[1:5]
fd = os.open(d, os.O_RDONLY | os.O_DIRECTORY)
n = 0
while not os.path.exists(stop):
    if libc.renameat2(fd, a.encode(), fd, b.encode(), 2) == 0:
        n += 1
print(n)
PY
chmod 644 "$tmp/swap.py"

# tries: runs of root while nobody swaps; PWNED must never appear
race() {
    rm -f "$tmp/stop"
    as_nobody "$py" "$tmp/swap.py" "$x" litmusc other "$tmp/stop" > "$tmp/swaps" &
    swapper=$!
    i=0
    while [ $i -lt 30 ] && [ ! -e "$tmp/PWNED" ]; do
        env -u LITMUSC_CACHE XDG_CACHE_HOME="$x" HOME="$tmp/nohome" "$L" run -s 10 "$test_file" \
            > /dev/null 2> "$tmp/race.err"
        i=$((i + 1))
    done
    touch "$tmp/stop"
    wait "$swapper"
    swapper=
    [ "$(cat "$tmp/swaps")" -gt 100 ] 2>/dev/null || fail "$1: nobody's swaps did not happen: $(cat "$tmp/swaps")"
    if [ -e "$tmp/PWNED" ]; then
        fail "$1: root ran nobody's script from the cache at try $i: $(cat "$tmp/PWNED")"
        rm -f "$tmp/PWNED"
    fi
}
# 1: links, one to root's folder and one to nobody's, swapped
as_nobody ln -s real "$x/litmusc"
as_nobody ln -s evil "$x/other"
race "links swapped"
as_nobody rm -f "$x/litmusc" "$x/other"
# 2: root's folder itself and nobody's swapped (renames in nobody's folder)
mv "$x/real" "$x/litmusc"
as_nobody mv "$x/evil" "$x/other"
race "folders swapped"
[ -d "$x/litmusc" ] && [ "$(stat -c %U "$x/litmusc")" = nobody ] && as_nobody mv "$x/litmusc" "$x/evil2"
[ -d "$x/other" ] && [ "$(stat -c %U "$x/other")" = root ] && mv "$x/other" "$x/litmusc"

# 3: a link to a sticky world-writable folder of root's: refused, its mode kept
mkdir "$tmp/sticky"
chmod 1777 "$tmp/sticky"
rm -rf "$x/litmusc"
as_nobody ln -s "$tmp/sticky" "$x/litmusc"
env -u LITMUSC_CACHE XDG_CACHE_HOME="$x" "$L" run -s 10 "$test_file" > /dev/null 2> "$tmp/link.err"
st=$?
[ "$st" -eq 3 ] || fail "a linked cache folder: exit $st, want 3: $(cat "$tmp/link.err")"
grep -q "symbolic link" "$tmp/link.err" || fail "no word of the link: $(cat "$tmp/link.err")"
mode=$(stat -c %a "$tmp/sticky")
[ "$mode" = 1777 ] || fail "the link's target went from 1777 to $mode"

[ "$fails" -eq 0 ] || { echo "cache_race: $fails failure(s)"; exit 1; }
echo "cache_race: 2 x 30 runs as root against nobody's swaps, no foreign runner run; a linked cache refused"
