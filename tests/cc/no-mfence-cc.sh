#!/bin/sh
# A deliberately broken compiler for cc-check's tests: it compiles with the
# real compiler (CC_REAL, default gcc) to assembly, deletes every mfence and
# turns each xchg into a mov (dropping seq_cst's ordering), then assembles.
# Takes the same arguments cc-check gives a compiler: ... SRC -o OBJ.
set -eu
real=${CC_REAL:-gcc}
out=""; prev=""
for a in "$@"; do [ "$prev" = "-o" ] && out=$a; prev=$a; done
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
# xchg MEM, %REG -> mov %REG, MEM (the store without its lock); xchg %REG, MEM -> mov
sed -e '/^[[:space:]]*mfence/d' \
    -e 's/^\([[:space:]]*\)xchg\([lq]\)[[:space:]]*\([^,]*(%rip)\),[[:space:]]*\(%[a-z0-9]*\)$/\1mov\2 \4, \3/' \
    -e 's/^\([[:space:]]*\)xchg\([lq]\)/\1mov\2/' \
    -e '/lock or[lq][[:space:]]*\$0,[[:space:]]*(%rsp)/d' "$asm" > "$asm.broken"
"$real" -c -x assembler "$asm.broken" -o "$out"
rm -f "$asm" "$asm.broken"
