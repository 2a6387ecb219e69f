#!/bin/sh
# gen_big_init.sh N: an X86 test with N initialised locations (x0..xN-1),
# one thread writing the last: about 12 bytes a location, so N = 800000
# makes a 10 MB test.  Times `litmusc parse`: see bench/RESULTS.md.
n=${1:?usage: gen_big_init.sh N}
awk -v n="$n" 'BEGIN {
    printf "X86 BIG\n{ "
    for (i = 0; i < n; i++) printf "x%d=%d; ", i, i % 7
    printf "}\n P0 ;\n MOV [x%d],$1 ;\nexists (x%d=1)\n", n - 1, n - 1
}'
