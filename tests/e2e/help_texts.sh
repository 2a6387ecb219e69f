#!/bin/sh
# Every command and emit target answers --help on stdout with status 0, and
# its text has the usage line, the options, the exit statuses and an
# example; an unknown option is a usage error (2) that prints the usage on
# stderr.  Every command in 'litmusc --help' is also in litmusc(1) and the
# bash completion, so a new command cannot be left out of either.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
L=${LITMUSC:?LITMUSC must name the program under test}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fails=0
checked=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# check_help LABEL USAGE-PREFIX ARGS...: runs litmusc ARGS --help
check_help() {
    label=$1 prefix=$2
    shift 2
    "$L" "$@" --help > "$tmp/out" 2> "$tmp/err"
    rc=$?
    checked=$((checked + 1))
    [ "$rc" -eq 0 ] || fail "$label --help: exit $rc"
    [ -s "$tmp/err" ] && fail "$label --help wrote to stderr: $(head -2 "$tmp/err")"
    head -1 "$tmp/out" | grep -q "^usage: $prefix" ||
        fail "$label --help: first line is not 'usage: $prefix...': $(head -1 "$tmp/out")"
    grep -q '^ *-' "$tmp/out" || fail "$label --help lists no options"
    grep -q '^exit status: 0 ' "$tmp/out" || fail "$label --help says nothing of the exit status"
    grep -q "^example: litmusc " "$tmp/out" || fail "$label --help has no example"
    # the example uses the command it documents
    word=$(echo "$prefix" | awk '{print $2}')
    grep "^example: " "$tmp/out" | grep -q "litmusc $word" ||
        fail "$label --help: the example is not of 'litmusc $word'"
}

"$L" --help > "$tmp/main" 2>&1 || fail "litmusc --help: exit $?"
grep -q '^exit status: 0 ' "$tmp/main" || fail "litmusc --help says nothing of the exit status"
commands=$(sed -n '/^commands:/,/^$/p' "$tmp/main" | awk 'NR > 1 && NF {print $1}')
[ "$(echo "$commands" | wc -w)" -ge 9 ] || fail "litmusc --help lists too few commands: $commands"

for c in $commands; do
    case $c in
    emit) check_help "emit" "litmusc emit --target" emit ;;
    *) check_help "$c" "litmusc $c" "$c" ;;
    esac
    case $c in
    emit) set -- emit --target c11 ;;
    campaign) set -- campaign run ;;
    *) set -- "$c" ;;
    esac
    "$L" "$@" --no-such-option > "$tmp/out" 2> "$tmp/err"
    rc=$?
    [ "$rc" -eq 2 ] || fail "$c --no-such-option: exit $rc, not 2"
    grep -q "no-such-option" "$tmp/err" || fail "$c --no-such-option: the error does not name the option"
    grep -q "^usage: \\|'litmusc $c[^']* --help'" "$tmp/err" ||
        fail "$c --no-such-option: neither the usage nor where to find it on stderr"
    sed 's/\\-/-/g' "$root/doc/litmusc.1" | grep -q "^\\.B $c\\( \\|$\\)" || fail "$c is not in doc/litmusc.1"
    grep -q "commands=\".*\\b$c\\b" "$root/doc/litmusc.bash" || fail "$c is not in the bash completion"
done

targets=$("$L" emit --help | sed -n '/^targets:/,/^$/p' | awk 'NR > 1 && NF {print $1}')
[ "$(echo "$targets" | wc -w)" -ge 5 ] || fail "emit --help lists too few targets: $targets"
for t in $targets; do
    check_help "emit --target $t" "litmusc emit --target $t" emit --target "$t"
done

for sub in run merge report diff parallel slurm; do
    check_help "campaign $sub" "litmusc campaign" campaign "$sub"
done

[ "$fails" -eq 0 ] || exit 1
echo "ok: $checked help texts"
