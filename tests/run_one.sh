#!/bin/sh
# One test of tests/run_all.sh's pool: run_one.sh DIR ID.  Runs the command
# in DIR/ID.cmd (its first line names the test, the rest is the command,
# one argument per line), keeps its output in DIR/ID.log, writes
# "status seconds" to DIR/ID.rc and prints the test's result line at once,
# so that a long suite shows progress while tests finish out of order.
set -u
dir=$1 id=$2
name=$(sed -n 1p "$dir/$id.cmd")
set --
while IFS= read -r arg; do set -- "$@" "$arg"; done <<EOA
$(sed 1d "$dir/$id.cmd")
EOA
start=$(date +%s)
"$@" >"$dir/$id.log" 2>&1 </dev/null
rc=$?
secs=$(( $(date +%s) - start ))
echo "$rc $secs" >"$dir/$id.rc.tmp" && mv "$dir/$id.rc.tmp" "$dir/$id.rc"
case $rc in
0) printf 'PASS %-40s %ss\n' "$name" "$secs" ;;
77) printf 'SKIP %-40s %s\n' "$name" "$(sed -n 's/^SKIP: *//p' "$dir/$id.log" | head -1)" ;;
*) printf 'FAIL %-40s %ss (exit %s)\n' "$name" "$secs" "$rc" ;;
esac
exit 0
