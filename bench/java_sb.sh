#!/bin/sh
# Benchmark: the standalone Java runner on store buffering (plain, opaque,
# volatile accesses).  Prints, per variant, the samples per second of the
# measured part and how often the weak outcome 0,0 showed (jcstress sees
# plain SB's weak outcome in about 40% of its samples on 2 CPUs).
#   LITMUSC=bin/litmusc sh bench/java_sb.sh [-s N] [-r N]
set -u
L=${LITMUSC:-bin/litmusc}
S=${1:-10000}
R=${2:-200}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LITMUSC_CACHE="$tmp/cache"
for v in plain:get:set opaque:getOpaque:setOpaque volatile:getVolatile:setVolatile; do
    name=SB-${v%%:*}
    rest=${v#*:}
    rd=${rest%%:*}
    wr=${rest#*:}
    cat > "$tmp/$name.litmus" <<LIT
Java $name
{ x = 0; y = 0; 0:X=x; 0:Y=y; 1:X=x; 1:Y=y; }
Thread0 { X.$wr(1); int r0 = Y.$rd(); }
Thread1 { Y.$wr(1); int r0 = X.$rd(); }
exists (0:r0=0 /\\ 1:r0=0)
LIT
done
"$L" run --target java -s "$S" -r "$R" "$tmp"/SB-plain.litmus "$tmp"/SB-opaque.litmus \
    "$tmp"/SB-volatile.litmus > "$tmp/log" 2>&1 || { cat "$tmp/log"; exit 1; }
echo "java_sb: $(nproc) CPUs, $(java -version 2>&1 | head -1), -s $S -r $R"
printf '%-12s %12s %10s %12s %8s\n' test samples seconds samples/s weak%
awk '
    $1 == "Test" { name = $2 }
    $1 == "Observation" { pos[name] = $4; tot[name] = $4 + $5 }
    $1 == "Time" { t[name] = $3; order[++n] = name }
    END { for (i = 1; i <= n; i++) { k = order[i];
            printf "%-12s %12d %10.2f %12.0f %7.2f%%\n", k, tot[k], t[k],
                   (t[k] > 0 ? tot[k] / t[k] : 0), (tot[k] ? 100 * pos[k] / tot[k] : 0) } }' "$tmp/log"
