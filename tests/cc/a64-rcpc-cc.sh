#!/bin/sh
# An AArch64 compiler with RCpc for cc-check's tests, as GCC 13 and LLVM 16
# are at -march=armv8.3-a (Debian's gcc 12 and clang 14 still give LDAR):
# the real one's assembly with each LDAR, LDARB, LDARH an LDAPR (the
# assembler told of the extension).  Right for an acquire load; wrong for
# a seq_cst one, which an earlier STLR must stay ordered before (SB's
# STLR;LDAPR may reorder).  See tests/cc/a64-broken-cc.sh for the rest.
A64_SED='1i\
	.arch_extension rcpc
s/^\([[:space:]]*\)ldar\([bh]\{0,1\}[[:space:]]\)/\1ldapr\2/'
export A64_SED
exec sh "$(dirname "$0")/a64-broken-cc.sh" "$@"
