#!/bin/sh
# A deliberately broken AArch64 compiler for cc-check's tests: it compiles
# with the real one (CC_REAL, default aarch64-linux-gnu-gcc) to assembly,
# deletes every dmb and turns each ldar into a plain ldr (dropping seq_cst
# fences and acquire loads' ordering), then assembles.  A64_SED, when set,
# is the sed script applied instead (tests/cc/a64-rcpc-cc.sh's).  Takes the
# arguments cc-check gives a compiler: ... SRC -o OBJ; a call without -o
# (--version, gcc's -Q --help=optimizers) goes to the real one unchanged.
set -eu
real=${CC_REAL:-aarch64-linux-gnu-gcc}
out=""; prev=""
for a in "$@"; do [ "$prev" = "-o" ] && out=$a; prev=$a; done
[ -n "$out" ] || exec "$real" "$@"
asm=$out.s
# the arguments with -c and -o OBJ replaced by -S -o OBJ.s
args=""; skip=false
for a in "$@"; do
  if $skip; then skip=false; continue; fi
  case $a in -c) continue ;; -o) skip=true; continue ;; esac
  args="$args $a"
done
# shellcheck disable=SC2086
"$real" -S $args -o "$asm"
edit=${A64_SED:-'/^[[:space:]]*dmb[[:space:]]/d
s/^\([[:space:]]*\)ldar\([[:space:]]\)/\1ldr\2/'}
sed -e "$edit" "$asm" >"$asm.broken"
"$real" -c -x assembler "$asm.broken" -o "$out"
rm -f "$asm" "$asm.broken"
