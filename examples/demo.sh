#!/bin/sh
# The whole litmusc flow on examples/ (run by `make demo`): generate a
# family of tests from cycles (`litmusc gen`, the SB shapes of up to six
# edges over PodWR, Rfe, Fre, Coe and MFencedWR), then for every test,
# compute its behaviour set under the arch's default model, generate,
# build and run the native harness, compare what the machine did with the
# model, run it again with --until-covered (until every state the model
# allows has shown, at most 1M iterations), and end with a summary table.
#
#   LITMUSC   the program (default: ../bin/litmusc beside this script)
#   DEMO_S    instances per run (default 100000)
#   DEMO_R    runs (default 10)
#   DEMO_SYNC how the threads meet (default: the runner's, chunks of 32
#             instances started on a common clock tick)
#   DEMO_LOG  keep the full logs in this file (default: a temporary file)
#
# Exit status: 0 when no test showed a state its model forbids, 1 when one
# did, 3 when the tools failed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
L=${LITMUSC:-$here/../bin/litmusc}
S=${DEMO_S:-100000}
R=${DEMO_R:-10}
SYNC=${DEMO_SYNC:-}
sync_opt=${SYNC:+--sync $SYNC}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'echo; echo "demo: interrupted" >&2; exit 3' INT TERM
log=${DEMO_LOG:-$tmp/demo.log}
: >"$log"

if [ ! -x "$L" ]; then
    echo "demo: $L is not built (run make)" >&2
    exit 3
fi

files=$(ls "$here"/x86/*.litmus "$here"/c/*.litmus "$here"/java/*.litmus "$here"/locks/*.litmus)
if "$L" gen --arch X86 --size 6 --safe 'PodWR,Rfe,Fre,Coe,MFencedWR' -o "$tmp/gen" 2>>"$log"; then
    files="$files
$(sed "s|^|$tmp/gen/|" "$tmp/gen/@all")"
else
    echo "demo: litmusc gen failed (see the log)" >&2
    exit 3
fi

# Does `run` work in this build?  If not, show what does: parsing and
# lowering every example.
probe=$("$L" run -s 10 -r 1 "$here/x86/SB.litmus" 2>&1 >/dev/null)
probe_rc=$?
if [ "$probe_rc" -eq 3 ] && echo "$probe" | grep -q "not available"; then
    echo "demo: 'litmusc run' is not available in this build; parsing and lowering examples/ instead"
    ok=0
    bad=0
    for f in $files; do
        if "$L" ir "$f" >/dev/null 2>"$tmp/err"; then
            ok=$((ok + 1))
        else
            bad=$((bad + 1))
            echo "  $(basename "$f"): $(head -1 "$tmp/err")"
        fi
    done
    echo "demo: $ok of $((ok + bad)) examples parsed and lowered to IR"
    [ "$bad" -eq 0 ] || exit 3
    exit 0
fi

echo "litmusc demo: $(echo "$files" | wc -l) tests, -s $S -r $R ${SYNC:+--sync $SYNC }($(nproc 2>/dev/null || echo '?') cores)"
echo
rows="$tmp/rows"
: >"$rows"
status=0
for f in $files; do
    arch=$(basename "$(dirname "$f")")
    case $f in "$tmp/gen/"*) arch=gen ;; esac
    # shellcheck disable=SC2086
    "$L" run -s "$S" -r "$R" $sync_opt --timeout 120 "$f" >"$tmp/run" 2>"$tmp/err"
    rc=$?
    cat "$tmp/run" "$tmp/err" >>"$log"
    name=$(awk '$1 == "Test" { print $2; exit }' "$tmp/run")
    # The model's verdict: "Model NAME MODEL N states, observation WORD T F".
    verdict=$(awk '$1 == "Model" { for (i = 1; i < NF; i++) if ($i == "observation") print $(i + 1) }' "$tmp/run")
    [ -n "$verdict" ] || verdict="-"
    [ -n "$name" ] || name=$(basename "$f" .litmus)
    # Observation NAME WORD T F: T is the number of witnesses.
    witnesses=$(awk '$1 == "Observation" { print $4; exit }' "$tmp/run")
    iterations=$(awk '$1 == "Config" { for (i = 3; i <= NF; i++) if ($i ~ /^iterations=/) { sub("iterations=", "", $i); print $i } }' "$tmp/run")
    forbidden=$(grep -c "^State [^ ]* FORBIDDEN" "$tmp/run")
    # Coverage NAME SEEN/ALLOWED first=... [x86=K/N]: allowed states seen
    seen=$(awk '$1 == "Coverage" { s = $3; for (i = 4; i <= NF; i++) if ($i ~ /^x86=/) s = s " (" $i ")"; print s; exit }' "$tmp/run")
    # the same test until every allowed state has shown: "(covered after N
    # iterations)" or "(not covered within N iterations)"
    covered=-
    if [ "$rc" -le 1 ]; then
        # shellcheck disable=SC2086
        "$L" run -s "$S" -r 1 --until-covered --max-iterations 1M $sync_opt --timeout 120 "$f" >"$tmp/cov" 2>>"$tmp/err"
        crc=$?
        cat "$tmp/cov" >>"$log"
        [ "$crc" -gt "$rc" ] && rc=$crc
        forbidden=$((forbidden + $(grep -c "^State [^ ]* FORBIDDEN" "$tmp/cov")))
        covered=$(sed -n 's/^Coverage .*(covered after \([0-9]*\) iterations)$/\1/p; s/^Coverage .*(not covered within .*/no/p' "$tmp/cov" | head -1)
    fi
    case $rc in
    0) result="ok" ;;
    1) result="FORBIDDEN SEEN"; status=1 ;;
    *) result="error: $(head -1 "$tmp/err" | cut -c1-60)"; [ "$status" -eq 0 ] && status=3 ;;
    esac
    printf '%-6s %-22s %-10s %10s %10s %-18s %8s %9s  %s\n' "$arch" "$name" "$verdict" \
        "${witnesses:--}" "${iterations:--}" "${seen:--}" "${covered:--}" "$forbidden" "$result" >>"$rows"
    printf '.'
done
echo
echo
printf '%-6s %-22s %-10s %10s %10s %-18s %8s %9s  %s\n' "arch" "test" "model" "witnesses" "iterations" "states seen" "covered" "forbidden" "result"
printf '%-6s %-22s %-10s %10s %10s %-18s %8s %9s  %s\n' "----" "----" "-----" "---------" "----------" "-----------" "-------" "---------" "------"
cat "$rows"
echo
echo "model: the test's condition under the arch's default model (x86tso, rc11, jam21);"
echo "witnesses: runs where the condition held; states seen: of the states the model"
echo "allows, how many the run showed (x86=: of those the x86 compilation can show;"
echo "run --until-covered goes on until all are); covered: the iterations a second run,"
echo "--until-covered --max-iterations 1M, took to show every one of them (no: not within"
echo "1M); forbidden: distinct observed states outside the behaviour set, in either run"
echo "(each one is a bug in the machine, compiler or model)."
[ -n "${DEMO_LOG:-}" ] && echo "full logs: $log"
exit $status
