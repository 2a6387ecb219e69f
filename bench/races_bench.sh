#!/bin/sh
# What finding races costs on top of modelling: `litmusc races` against
# `litmusc model` over every test of tests/corpus and ../shared/corpus (when
# present), each under its arch's default model, one process per folder as
# a user would batch them.  Per command: the whole processes' CPU and wall
# time (best of ROUNDS rounds), and the modelling time the JSON reports per
# test (races: the model run with every consistent execution's races),
# summed, best per test over the rounds (all, per arch, and the racy tests:
# an execution without a non-atomic access is not looked at further); then
# the tests where races costs the most against model.  Goal: races under 2x
# model.
#   LITMUSC=bin/litmusc sh bench/races_bench.sh [ROUNDS]
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
: "${LITMUSC:=$root/bin/litmusc}"
rounds=${1:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
command -v python3 > /dev/null 2>&1 || { echo "races_bench: needs python3 (to read the JSON)"; exit 1; }
corpora="$root/tests/corpus"
[ -d "$root/../shared/corpus" ] && corpora="$corpora $(cd "$root/../shared/corpus" && pwd)"
echo "machine: $(uname -m), $(nproc) cpus, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "litmusc: $LITMUSC; $rounds rounds; corpora: $corpora"
: > "$tmp/times"
r=1
while [ "$r" -le "$rounds" ]; do
    for corpus in $corpora; do
        for dir in $(find "$corpus" -name '*.litmus' | sed 's|/[^/]*$||' | sort -u); do
            for cmd in model races; do
                # shellcheck disable=SC2046
                /usr/bin/time -f "%e %U %S" -o "$tmp/t" "$LITMUSC" "$cmd" --json $(ls "$dir"/*.litmus) \
                    > "$tmp/$cmd.$r.$(echo "$dir" | md5sum | cut -c1-12).json" 2> /dev/null
                echo "$r $cmd $(tail -1 "$tmp/t")" >> "$tmp/times"
            done
        done
    done
    r=$((r + 1))
done
python3 - "$tmp" "$rounds" <<'PY'
import glob, json, os, sys
tmp, rounds = sys.argv[1], int(sys.argv[2])
# whole processes: per round and command, summed over folders; best round
tot = {}
for line in open(os.path.join(tmp, "times")):
    r, cmd, wall, user, sys_ = line.split()
    w, c = tot.setdefault((cmd, r), [0.0, 0.0])
    tot[(cmd, r)] = [w + float(wall), c + float(user) + float(sys_)]
best = {cmd: min((v for (c, r), v in tot.items() if c == cmd), key=lambda v: v[1]) for cmd in ("model", "races")}
# per test: the model run's seconds from the JSON, best over rounds
secs = {"model": {}, "races": {}}
arch = {}
racy = set()
for f in glob.glob(os.path.join(tmp, "*.json")):
    cmd = os.path.basename(f).split(".")[0]
    for res in json.load(open(f))["results"]:
        if "model" not in res:
            continue
        k = res["file"]
        s = res["model"].get("seconds", 0.0)
        secs[cmd][k] = min(secs[cmd].get(k, s), s)
        arch[k] = res["arch"]
        if cmd == "races" and res.get("races"):
            racy.add(k)
tests = sorted(set(secs["model"]) & set(secs["races"]))
def total(cmd, keep):
    return sum(secs[cmd][k] for k in tests if keep(k))
print()
print("whole processes, best of %d rounds (summed over folders): wall s, CPU s (user+sys)" % rounds)
for cmd in ("model", "races"):
    print("  %-6s wall %7.3f  cpu %7.3f" % (cmd, best[cmd][0], best[cmd][1]))
print("  races/model: wall %.2fx, cpu %.2fx" % (best["races"][0] / best["model"][0], best["races"][1] / best["model"][1]))
print()
print("modelling time per test from the JSON (seconds, sum of each test's best):")
for label, keep in (("all", lambda k: True), ("C", lambda k: arch[k] == "C"), ("Java", lambda k: arch[k] == "Java"),
                    ("X86", lambda k: arch[k].startswith("X86")), ("racy", lambda k: k in racy)):
    n = sum(1 for k in tests if keep(k))
    m, r = total("model", keep), total("races", keep)
    print("  %-4s %4d tests  model %8.4f  races %8.4f  races/model %.2fx" % (label, n, m, r, r / m if m else 0))
print("  (racy: the tests with races; hb is computed only for executions with a non-atomic access)")
print()
print("largest races/model ratios among tests whose model run takes 1 ms or more (test, model s, races s, ratio):")
big = [k for k in tests if secs["model"][k] >= 0.001]
for k in sorted(big, key=lambda k: -secs["races"][k] / secs["model"][k])[:8]:
    print("  %-70s %.4f %.4f %.2fx" % (k[-70:], secs["model"][k], secs["races"][k], secs["races"][k] / secs["model"][k]))
PY
