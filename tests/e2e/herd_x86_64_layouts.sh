#!/bin/sh
# Acyclic X86_64 code laid out with jumps back (as compilers and herd's
# A006 write it): for each of N seeds, a thread of 3 to 6 blocks joined by
# conditional and plain jumps that only go forward in the blocks' order is
# written twice, its blocks in that order (every jump forward) and shuffled
# (jumps back too).  `litmusc model` must give both the same States, and,
# with HERD7 naming herd7 (HERD_LIBDIR its libdir if needed), the shuffled
# file exactly herd7's block, Hash line included.  LAYOUTS=N (default 30).
set -u
L=${LITMUSC:?LITMUSC must name the program under test}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
n=${LAYOUTS:-30}

# gen SEED SHUFFLE > FILE: the test; SHUFFLE 0 keeps the blocks in order.
gen() {
    awk -v seed="$1" -v shuffle="$2" 'BEGIN {
        srand(seed)
        k = 3 + int(rand() * 4)
        split("%eax %ebx %ecx %edx", regs, " ")
        # the blocks first, so that both layouts draw the same ones
        for (b = 0; b < k; b++) {
            op[b] = int(rand() * 3); src[b] = rand() < 0.5 ? "x" : "y"; dst[b] = rand() < 0.5 ? "x" : "z"
            t1[b] = b + 1 + int(rand() * (k - b)); t2[b] = b + 1 + int(rand() * (k - b))
        }
        # the entry block stays first
        for (i = 0; i < k; i++) lay[i] = i
        if (shuffle)
            for (i = k - 1; i > 1; i--) { j = 1 + int(rand() * i); t = lay[i]; lay[i] = lay[j]; lay[j] = t }
        nl = 0
        for (i = 0; i < k; i++) {
            b = lay[i]
            c[nl++] = "L" b ":"
            if (op[b] != 1) c[nl++] = "movl (" src[b] ")," regs[b % 4 + 1]
            if (op[b] != 0) c[nl++] = "movl $" (b + 2) ",(" dst[b] ")"
            if (b < k - 1) {
                c[nl++] = "movl (y),%esi"; c[nl++] = "cmp $1,%esi"
                c[nl++] = "je L" t1[b]; c[nl++] = "jmp L" t2[b]
            } else c[nl++] = "jmp L" k
        }
        c[nl++] = "L" k ":"
        p[0] = "movl $1,(x)"; p[1] = "movl $1,(y)"; p[2] = "movl (z),%eax"
        print "X86_64 layout" seed
        print "{ x=0; y=0; z=0; }"
        print " P0 | P1 ;"
        for (i = 0; i < nl || i < 3; i++) print " " (i < nl ? c[i] : "") " | " (i < 3 ? p[i] : "") " ;"
        print "locations [x; z; 0:rax; 0:rbx; 0:rcx; 0:rdx;]"
        print "exists (1:rax=0)"
    }'
}

states() {
    awk '/^States /{n=$2; next} n>0 {print; n--}' "$1"
}

if [ -n "${HERD7:-}" ] && [ -x "$HERD7" ]; then herd=1; else herd=0; fi
back=0
s=1
while [ "$s" -le "$n" ]; do
    gen "$s" 0 > "$tmp/fwd.litmus"
    gen "$s" 1 > "$tmp/shuf.litmus"
    "$L" model "$tmp/fwd.litmus" > "$tmp/fwd.out" 2>&1 || { echo "FAIL: seed $s, in order: $(cat "$tmp/fwd.out")"; fail=1; }
    "$L" model "$tmp/shuf.litmus" > "$tmp/shuf.out" 2>&1 || { echo "FAIL: seed $s, shuffled: $(cat "$tmp/shuf.out")"; fail=1; }
    if ! cmp -s "$tmp/fwd.litmus" "$tmp/shuf.litmus"; then back=$((back + 1)); fi
    if [ "$(states "$tmp/fwd.out")" != "$(states "$tmp/shuf.out")" ]; then
        echo "FAIL: seed $s: the shuffled layout gives other states"; cat "$tmp/shuf.litmus"; fail=1
    fi
    if [ "$herd" = 1 ]; then
        if [ -n "${HERD_LIBDIR:-}" ]; then
            "$HERD7" -set-libdir "$HERD_LIBDIR" "$tmp/shuf.litmus" > "$tmp/h" 2>&1
        else
            "$HERD7" "$tmp/shuf.litmus" > "$tmp/h" 2>&1
        fi
        grep -v '^Time ' "$tmp/h" > "$tmp/h2"
        grep -v '^Time ' "$tmp/shuf.out" | cmp -s - "$tmp/h2" ||
            { echo "FAIL: seed $s: herd7 prints another block"; cat "$tmp/shuf.litmus"; diff "$tmp/h2" "$tmp/shuf.out" | head -8; fail=1; }
    fi
    s=$((s + 1))
done
[ "$back" -gt 0 ] || { echo "FAIL: no seed shuffled the blocks"; fail=1; }
[ "$herd" = 1 ] || echo "SKIP: HERD7 is not set: the layouts were not run through herd7"
[ "$fail" -eq 0 ] && echo "herd_x86_64_layouts: $n layouts ($back shuffled) give the states of their blocks in order$([ "$herd" = 1 ] && echo ", and herd7's block")"
exit "$fail"
