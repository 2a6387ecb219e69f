#!/bin/sh
# check: long
# Every corpus test, under each model it has a herd7 verdict for, must give
# exactly herd7's block (the Time line aside): states, verdict, counts,
# flags, condition, observation and hash.  One litmusc process per folder
# and model.  Tests whose .herd file is empty (herd failed or timed out)
# must still not crash litmusc; what it says for them is printed.
# MODEL_CORPUS_ONLY=REGEX restricts the folders (for quick runs);
# MODEL_CORPUS_FLAGS adds options to every litmusc run.
set -u
: "${LITMUSC:?set LITMUSC to the litmusc program}"
. "$(dirname "$0")/../corpora.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# Cut herd-format output into one file per test, named by its Test line.
split_blocks() {
    mkdir -p "$2"
    awk -v dir="$2" '
        /^Test / { name = $2; gsub(/[^A-Za-z0-9_.+-]/, "_", name); file = dir "/" name; printf "" > file }
        /^Time / { next }
        file != "" { print >> file }
        /^$/ { if (file != "") close(file); file = "" }
    ' "$1"
}

total=0
agree=0
failed=""
for corpus in $(corpora); do
label=$(corpus_label "$corpus")
for dir in $(find "$corpus" -name '*.litmus' | sed 's|/[^/]*$||' | sort -u); do
    rel=$label/${dir#"$corpus"/}
    if [ -n "${MODEL_CORPUS_ONLY:-}" ] && ! echo "$rel" | grep -Eq "$MODEL_CORPUS_ONLY"; then
        continue
    fi
    models=$(ls "$dir" | sed -n 's/^.*\.\([a-z0-9]*\)\.herd$/\1/p' | sort -u)
    for m in $models; do
        : > "$tmp/list"
        : > "$tmp/empty"
        : > "$tmp/expected"
        for f in "$dir"/*.litmus; do
            h="${f%.litmus}.$m.herd"
            [ -f "$h" ] || continue
            if [ -s "$h" ]; then
                echo "$f" >> "$tmp/list"
                cat "$h" >> "$tmp/expected"
            else
                echo "$f" >> "$tmp/empty"
            fi
        done
        rm -rf "$tmp/got" "$tmp/exp"
        if [ -s "$tmp/list" ]; then
            # shellcheck disable=SC2046
            "$LITMUSC" model ${MODEL_CORPUS_FLAGS:-} --model "$m" $(cat "$tmp/list") > "$tmp/out" 2> "$tmp/err"
            rc=$?
            if [ "$rc" -ge 3 ]; then
                echo "FAIL $rel ($m): litmusc exited with status $rc"
                head -5 "$tmp/err"
            fi
            split_blocks "$tmp/expected" "$tmp/exp"
            split_blocks "$tmp/out" "$tmp/got"
            for e in "$tmp/exp"/*; do
                [ -f "$e" ] || continue
                n=$(basename "$e")
                total=$((total + 1))
                if [ -f "$tmp/got/$n" ] && cmp -s "$e" "$tmp/got/$n"; then
                    agree=$((agree + 1))
                else
                    failed="$failed $rel/$n:$m"
                    if [ "${MODEL_CORPUS_QUIET:-0}" = 0 ]; then
                        echo "DIFF $rel/$n ($m)"
                        if [ -f "$tmp/got/$n" ]; then
                            diff "$e" "$tmp/got/$n" | head -8 | sed 's/^/    /'
                        else
                            grep -F "$n" "$tmp/err" | head -2 | sed 's/^/    /'
                        fi
                    fi
                fi
            done
        fi
        # Tests herd gave no verdict for: no crash, and say what we give.
        while read -r f; do
            [ -n "$f" ] || continue
            timeout 60 "$LITMUSC" model ${MODEL_CORPUS_FLAGS:-} --model "$m" "$f" > "$tmp/one" 2> "$tmp/oneerr"
            rc=$?
            if [ "$rc" -ge 3 ]; then
                echo "FAIL ${f#"$corpus"/} ($m): no herd verdict, and litmusc exited with status $rc"
                head -3 "$tmp/oneerr"
                failed="$failed ${f#"$corpus"/}:$m"
            else
                obs=$(grep '^Observation' "$tmp/one" || head -1 "$tmp/oneerr")
                echo "note: ${f#"$corpus"/} ($m), herd gave nothing; litmusc: $obs"
            fi
        done < "$tmp/empty"
    done
done
done
echo "model_corpus: $agree of $total blocks agree with herd7"
[ -z "$failed" ] && [ "$total" -gt 0 ]
