#!/bin/sh
# A deliberately broken compiler, for the tests of `litmusc hunt`: gcc with
# the same flags, but the assembly loses its fences (mfence lines and gcc's
# `lock or $0,(%rsp)` deleted)
# and each xchg becomes a plain mov (a seq_cst store without its barrier)
# before it is assembled into the -o object.  `--version` answers as gcc.
set -e
cc=${BROKEN_CC_REAL:-gcc}
out=
src=
args=
while [ $# -gt 0 ]; do
    case "$1" in
    --version) exec "$cc" --version ;;
    -o) out=$2; shift 2 ;;
    -c) shift ;;
    *.c) src=$1; shift ;;
    *) args="$args $1"; shift ;;
    esac
done
[ -n "$out" ] && [ -n "$src" ] || { echo "broken-cc: needs FILE.c and -o OBJ" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck disable=SC2086
"$cc" -S $args "$src" -o "$tmp/t.s"
# xchg MEM, REG and xchg REG, MEM both become mov REG, MEM: the store stays,
# its barrier goes
sed -E -e '/mfence/d' -e '/lock or[lq][[:space:]]+\$0, *\(%rsp\)/d' \
    -e 's/xchg([bwlq])[[:space:]]+([^,]*\([^)]*\)),[[:space:]]*(%[a-z0-9]+)/mov\1 \3, \2/' \
    -e 's/xchg([bwlq])[[:space:]]+(%[a-z0-9]+),[[:space:]]*([^,]*\([^)]*\))/mov\1 \2, \3/' \
    "$tmp/t.s" >"$tmp/u.s"
"$cc" -c "$tmp/u.s" -o "$out"
