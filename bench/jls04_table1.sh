#!/bin/sh
# jMT's Table 1 (Panneke and Wehrheim, arXiv:2604.15978, section 7) on
# litmusc: each case of tests/jls04 under jls04 and jam21, judged against
# the verdict its source documents (tests/jls04/expected.tsv): pass when
# the model allows a documented-allowed state, or allows no documented-
# forbidden one; fail otherwise; unsupported when herd's Java syntax cannot
# write the case, or the model refuses it.  Then per group, side by side
# with the paper's figures (jMT-JLS04 and herd-JAM21), and the model time
# of each case (the JSON "seconds": enumeration and justification, without
# process start).
#   LITMUSC=bin/litmusc sh bench/jls04_table1.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
dir="$here/../tests/jls04"
bench_tmp
echo "machine: $(uname -m), $(nproc) cpus, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "command: LITMUSC=$LITMUSC sh bench/jls04_table1.sh"
echo
# verdict MODEL FILE: "allowed SECONDS", "forbidden SECONDS" or "unsupported -"
verdict() {
    out=$("$LITMUSC" model --json --model "$1" "$2" 2>/dev/null) || { echo "unsupported -"; return; }
    obs=$(echo "$out" | sed -n 's/.*"observation":"\([a-z]*\)".*/\1/p')
    secs=$(echo "$out" | sed -n 's/.*"seconds":\([0-9.e+-]*\).*/\1/p')
    secs=$(awk -v s="$secs" 'BEGIN { printf "%.4f", s }')
    case $obs in
    sometimes|always) echo "allowed $secs" ;;
    never) echo "forbidden $secs" ;;
    *) echo "unsupported -" ;;
    esac
}
judge() {   # judge DOCUMENTED GOT
    case $2 in
    unsupported) echo unsupported ;;
    "$1") echo pass ;;
    *) echo fail ;;
    esac
}
printf '%-26s %-10s %-11s %-11s %-9s %-11s %-9s %s\n' case group documented jls04 seconds jam21 seconds "jls04 / jam21"
grep -v '^#' "$dir/expected.tsv" | while IFS='	' read -r file group documented expect source; do
    if [ "$file" = - ]; then
        name=$(echo "$source" | sed 's/^Pugh, causality test case \([0-9]*\).*/CTC\1/')
        j=unsupported; js=-; a=unsupported; as=-
    else
        name=${file%.litmus}
        set -- $(verdict jls04 "$dir/$file"); j=$1; js=$2
        set -- $(verdict jam21 "$dir/$file"); a=$1; as=$2
    fi
    pj=$(judge "$documented" "$j")
    pa=$(judge "$documented" "$a")
    printf '%-26s %-10s %-11s %-11s %-9s %-11s %-9s %s\n' "$name" "$group" "$documented" "$j" "$js" "$a" "$as" "$pj / $pa"
    echo "$group $pj $pa $js" >> "$tmp/rows"
done
echo
echo "per group: pass / fail / unsupported (the paper's Table 1 beside litmusc's; - where it has no such row)"
printf '%-12s %-8s %-18s %-18s %-18s %-18s\n' group cases "litmusc jls04" "jMT-JLS04 (paper)" "litmusc jam21" "herd-JAM21 (paper)"
for g in CTC1-16 CTC17-18 CTC12-array CTC14-15 CTC19-20 MT jcstress; do
    n=$(awk -v g="$g" '$1 == g && $2 != "unsupported"' "$tmp/rows" | wc -l)
    count() { awk -v g="$g" -v c="$1" -v w="$2" '$1 == g && $c == w' "$tmp/rows" | wc -l; }
    jl="$(count 2 pass) / $(count 2 fail) / $(count 2 unsupported)"
    ja="$(count 3 pass) / $(count 3 fail) / $(count 3 unsupported)"
    case $g in
    CTC1-16) pj="13 / 0 / 0"; pa="8 / 5 / 0" ;;
    CTC17-18) pj="2 / 0 / 0"; pa="2 / 0 / 0" ;;
    MT) pj="24 / 0 / 0 (of 24)"; pa="16 / 6 / 2 (of 24)" ;;
    jcstress) pj="27 / 0 / 0 (of 27)"; pa="27 / 0 / 0 (of 27)" ;;
    *) pj=-; pa=- ;;
    esac
    printf '%-12s %-8s %-18s %-18s %-18s %-18s\n' "$g" "$n" "$jl" "$pj" "$ja" "$pa"
done
echo
max=$(awk '$4 != "-" { if ($4 > m) m = $4 } END { printf "%.4f", m }' "$tmp/rows")
sum=$(awk '$4 != "-" { s += $4 } END { printf "%.4f", s }' "$tmp/rows")
echo "jls04 model time: slowest case ${max} s, all cases together ${sum} s"
