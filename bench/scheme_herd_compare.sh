#!/bin/sh
# Optional cross-check against an installed herd7 (HERD=path; skipped when
# unset): compile every C and Java corpus test with the standard schemes,
# then for each compiled test herd7 can run, compare herd7's States block
# with `litmusc model` on the same file.  Prints counts and the tests that
# differ, fail to run, or time out (TIMEOUT seconds each, default 60).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
corpus="$here/../../shared/corpus"
L=$LITMUSC
if [ -z "${HERD:-}" ]; then
    echo "scheme_herd_compare: HERD is not set; skipped"
    exit 0
fi
limit=${TIMEOUT:-60}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for d in $(find "$corpus/c11" "$corpus/java" -name '*.litmus' -exec dirname {} \; | sort -u); do
    case $d in "$corpus/c11"*) s=c11-x86-xchg ;; *) s=java-x86-hotspot ;; esac
    o="$tmp/out/$(printf '%s' "${d#$corpus/}" | tr '/' '_')"
    mkdir -p "$o"
    "$L" emit --target x86-litmus --scheme "$s" "$d"/*.litmus -o "$o" || echo "emit failed in $d"
done
same=0 differ=0 skipped=0 failed=0
start=$(date +%s)
for f in "$tmp"/out/*/*.litmus; do
    if grep -q '^(\* not runnable by herd7' "$f"; then
        skipped=$((skipped + 1))
        continue
    fi
    if ! timeout "$limit" "$HERD" "$f" >"$tmp/h" 2>"$tmp/e"; then
        failed=$((failed + 1))
        echo "herd7 failed or timed out: $(basename "$f") $(head -1 "$tmp/e")"
        continue
    fi
    sed -n '/^States/,/^\(Ok\|No\|Undef\)$/p' "$tmp/h" >"$tmp/a"
    "$L" model "$f" 2>&1 | sed -n '/^States/,/^\(Ok\|No\|Undef\)$/p' >"$tmp/b"
    tally "$tmp/a" "$tmp/b" "$(basename "$f")"
done
echo "compiled tests: $same same states as herd7, $differ differ, $failed herd7 failures/timeouts, $skipped not runnable by herd7"
echo "wall time: $(( $(date +%s) - start )) s"
