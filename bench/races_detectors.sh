#!/bin/sh
# The race detectors side by side over tests/corpus (and ../shared/corpus
# when present), the lock and loop tests: per folder, the tests, the distinct pairs each
# detector reports (`races --detector all`, summed from its Nested lines)
# and the tests where they do not nest (must be 0); then the CPU time of
# `races --detector all` against `model` over the same files, one process
# per folder, best of ROUNDS rounds.  Goal: within 2x of model.
#   LITMUSC=bin/litmusc sh bench/races_detectors.sh [ROUNDS]
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
bench_tmp cache
rounds=${1:-5}
root=$(cd "$here/.." && pwd)
corpora="$root/tests/corpus"
[ -d "$root/../shared/corpus" ] && corpora="$corpora $(cd "$root/../shared/corpus" && pwd)"
# the tests with locks and loops, each folder a row of its own
locks="$root/tests/locks/corpus $root/tests/locks/c $root/tests/locks/java $root/examples/locks $root/tests/loops/corpus $root/tests/loops/c"
echo "machine: $(uname -m), $(nproc) cpus, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "litmusc: $LITMUSC; $rounds rounds"
echo
table_head folder tests exact hb hybrid lockset "not nested"
for corpus in $corpora; do
    for lang in c11 java x86; do
        [ -d "$corpus/$lang" ] || continue
        find "$corpus/$lang" -name '*.litmus' | sort > "$tmp/list.$lang"
        # shellcheck disable=SC2046
        "$LITMUSC" races --detector all $(cat "$tmp/list.$lang") > "$tmp/out" 2> "$tmp/err"
        bad=$(grep -c 'do not nest' "$tmp/err")
        awk -v f="${corpus##*/}/$lang" -v bad="$bad" '/^Nested / { n++; e += $4; h += $7; y += $10; l += $13 }
            END { printf "| %s | %d | %d | %d | %d | %d | %d |\n", f, n, e, h, y, l, bad }' "$tmp/out"
    done
done
for dir in $locks; do
    # shellcheck disable=SC2046
    "$LITMUSC" races --detector all $(ls "$dir"/*.litmus) > "$tmp/out" 2> "$tmp/err"
    bad=$(grep -c 'do not nest' "$tmp/err")
    awk -v f="${dir#"$root"/}" -v bad="$bad" '/^Nested / { n++; e += $4; h += $7; y += $10; l += $13 }
        END { printf "| %s | %d | %d | %d | %d | %d | %d |\n", f, n, e, h, y, l, bad }' "$tmp/out"
done
echo
# in-process modelling time from --json ("seconds" per test: model alone,
# and the model run with every detector on every consistent execution),
# best per test over the rounds, summed
r=1
while [ "$r" -le "$rounds" ]; do
    for corpus in $corpora; do
        for dir in $(find "$corpus" -name '*.litmus' | sed 's|/[^/]*$||' | sort -u) $([ "$corpus" = "$root/tests/corpus" ] && echo "$locks"); do
            key=$(echo "$dir" | md5sum | cut -c1-12)
            # shellcheck disable=SC2046
            "$LITMUSC" model --json $(ls "$dir"/*.litmus) > "$tmp/j.model.$r.$key" 2> /dev/null
            # shellcheck disable=SC2046
            "$LITMUSC" races --detector all --json $(ls "$dir"/*.litmus) > "$tmp/j.races.$r.$key" 2> /dev/null
        done
    done
    r=$((r + 1))
done
python3 - "$tmp" <<'PY'
import glob, json, sys
best = {"model": {}, "races": {}}
for f in glob.glob(sys.argv[1] + "/j.*"):
    cmd = f.split("/")[-1].split(".")[1]
    for res in json.load(open(f))["results"]:
        k = res["file"]
        s = res["model"]["seconds"]
        best[cmd][k] = min(s, best[cmd].get(k, s))
m, r = sum(best["model"].values()), sum(best["races"].values())
print("in-process (JSON seconds, best per test, %d tests): model %.4f s, races --detector all %.4f s, ratio %.2f"
      % (len(best["model"]), m, r, r / m if m else 0))
PY
# CPU time (user + sys) of each command over every folder, best round
for cmd in model "races --detector all"; do
    best=""
    r=1
    while [ "$r" -le "$rounds" ]; do
        total=0
        for corpus in $corpora; do
            for dir in $(find "$corpus" -name '*.litmus' | sed 's|/[^/]*$||' | sort -u) $([ "$corpus" = "$root/tests/corpus" ] && echo "$locks"); do
                # shellcheck disable=SC2046,SC2086
                /usr/bin/time -f "%U %S" -o "$tmp/t" "$LITMUSC" $cmd $(ls "$dir"/*.litmus) > /dev/null 2>&1
                total=$(awk -v t="$total" '{ printf "%.2f", t + $1 + $2 }' "$tmp/t")
            done
        done
        best=$(awk -v b="$best" -v t="$total" 'BEGIN { print (b == "" || t < b) ? t : b }')
        r=$((r + 1))
    done
    echo "$cmd: $best s CPU (best of $rounds)"
    echo "$best" >> "$tmp/best"
done
awk 'NR == 1 { m = $1 } NR == 2 { printf "ratio: races --detector all / model = %.2f\n", (m > 0 ? $1 / m : 0) }' "$tmp/best"
