#!/bin/sh
# The deliberately broken schemes fail check-scheme on store-buffering with
# the witness 0:r0=0 /\ 1:r0=0 (in source names), and print the x86 program
# that shows it; the sound schemes pass the same tests.
set -u
here=$(cd "$(dirname "$0")" && pwd)
ex="$here/../../examples"
L=${LITMUSC:?LITMUSC must name the program under test}
fails=0

# check SCHEME FILE WANT_STATUS [WITNESS]
check() {
    out=$("$L" check-scheme --scheme "$1" "$2" 2>&1)
    st=$?
    if [ "$st" -ne "$3" ]; then
        echo "FAIL: check-scheme --scheme $1 $(basename "$2"): exit $st, want $3"
        printf '%s\n' "$out" | sed 's/^/    /'
        fails=$((fails + 1))
        return
    fi
    if [ $# -ge 4 ]; then
        n=$(printf '%s\n' "$out" | grep -c '^  witness: ')
        if ! printf '%s\n' "$out" | grep -qxF "  witness: $4" || [ "$n" -ne 1 ]; then
            echo "FAIL: check-scheme --scheme $1 $(basename "$2"): want exactly the witness '$4'"
            printf '%s\n' "$out" | sed 's/^/    /'
            fails=$((fails + 1))
        fi
        if ! printf '%s\n' "$out" | grep -q '^    X86 '; then
            echo "FAIL: check-scheme --scheme $1 $(basename "$2"): no x86 program printed"
            fails=$((fails + 1))
        fi
    fi
}

check broken-c11-x86-plainsc "$ex/c/SB+sc.litmus" 1 '0:r0=0 /\ 1:r0=0'
check broken-java-x86-nofence "$ex/java/SB+volatile.litmus" 1 '0:r0=0 /\ 1:r0=0'
for s in c11-x86-xchg c11-x86-mfence; do
    check "$s" "$ex/c/SB+sc.litmus" 0
    check "$s" "$ex/c/SB+rlx.litmus" 0
done
for s in java-x86-hotspot java-x86-leading; do
    check "$s" "$ex/java/SB+volatile.litmus" 0
    check "$s" "$ex/java/SB+plain.litmus" 0
done
# Relaxed SB is allowed to show 0,0 in the source, so even a broken scheme passes it.
check broken-c11-x86-plainsc "$ex/c/SB+rlx.litmus" 0
check broken-java-x86-nofence "$ex/java/SB+plain.litmus" 0

# The failing program is the one with the fence missing: store then load, plain MOVs.
out=$("$L" check-scheme --scheme broken-c11-x86-plainsc "$ex/c/SB+sc.litmus" 2>&1)
if printf '%s\n' "$out" | grep -q 'XCHG\|MFENCE'; then
    echo "FAIL: the broken C11 scheme's program still has a barrier"
    fails=$((fails + 1))
fi
# Several files: one summary line, failure status.
out=$("$L" check-scheme --scheme broken-java-x86-nofence "$ex/java/SB+plain.litmus" "$ex/java/SB+volatile.litmus" 2>&1)
st=$?
if [ "$st" -ne 1 ] || ! printf '%s\n' "$out" | grep -q '^check-scheme broken-java-x86-nofence: 2 tests, 1 pass, 1 fail, 0 errors$'; then
    echo "FAIL: two-file check-scheme: exit $st"
    printf '%s\n' "$out" | sed 's/^/    /'
    fails=$((fails + 1))
fi

[ "$fails" -eq 0 ] && echo "scheme_broken: all checks passed"
[ "$fails" -eq 0 ]
