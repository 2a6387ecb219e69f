# Sourced by the bench scripts once each has set `here` to its own folder.
# LITMUSC defaults to this checkout's program.
: "${LITMUSC:=$here/../bin/litmusc}"

# bench_tmp [cache]: $tmp, a scratch folder removed when the script ends or
# is stopped; with "cache", LITMUSC_CACHE inside it, so the builds start
# cold and nothing is left in the user's cache.
bench_tmp() {
    tmp=$(mktemp -d)
    # a signal ends the script (the EXIT trap then removes the folder);
    # trapped without an exit, it would only remove it and run on
    trap 'rm -rf "$tmp"' EXIT
    trap 'exit 130' INT TERM
    if [ "${1:-}" = cache ]; then
        export LITMUSC_CACHE="$tmp/cache"
    fi
}

# table_head COLUMN...: a Markdown table's head, the first column aligned
# left and the others (figures) right.
table_head() {
    printf '|'
    printf ' %s |' "$@"
    printf '\n|---|'
    shift
    for _ in "$@"; do printf -- '---:|'; done
    printf '\n'
}

# median_max: of the sorted numbers on stdin, "MEDIAN, MAX (N tests)", or
# "-" when there are none.
median_max() {
    awk '{ v[NR] = $1 } END { if (NR) printf "%d, %d (%d tests)\n", v[int((NR + 1) / 2)], v[NR], NR; else print "-" }'
}

# tally A B WHAT: counts the outputs A and B as the same or as differing in
# $same and $differ, and names WHAT when they differ.
tally() {
    if cmp -s "$1" "$2"; then
        same=$((same + 1))
    else
        differ=$((differ + 1))
        echo "differs: $3"
    fi
}
