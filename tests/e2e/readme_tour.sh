#!/bin/sh
# The README's five-minute tour runs as written: every `$ litmusc ...` line
# of its code blocks is run (from a folder where examples/ and tests/ are
# the project's) and what it prints must be the lines under it, where a
# line `...` stands for any number of lines and `...` inside a line for
# any text.  A command whose block shows no output must print nothing.
set -u
: "${LITMUSC:?set LITMUSC to the litmusc program}"
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
export LITMUSC_CACHE="$tmp/cache"
. "$(cd "$(dirname "$0")/.." && pwd)/seed_cache.sh"
command -v python3 > /dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }
command -v "${CC:-cc}" > /dev/null 2>&1 || { echo "SKIP: no C compiler (the tour runs a harness)"; exit 77; }
command -v gcc > /dev/null 2>&1 || { echo "SKIP: no gcc (the tour runs cc-check with it)"; exit 77; }
mkdir "$tmp/work"
ln -s "$root/examples" "$tmp/work/examples"
ln -s "$root/tests" "$tmp/work/tests"
python3 - "$root/README.md" "$LITMUSC" "$tmp/work" <<'PY'
import re, shlex, subprocess, sys
readme, litmusc, work = sys.argv[1:4]
text = open(readme).read()
start = text.index("## A five-minute tour")
end = text.index("\n## ", start + 1)
section = text[start:end]
blocks = re.findall(r"^```\n(.*?)^```$", section, re.S | re.M)
steps = []      # (command, expected lines)
for b in blocks:
    for line in b.rstrip("\n").split("\n"):
        if line.startswith("$ "):
            steps.append((line[2:], []))
        elif steps:
            steps[-1][1].append(line)
        else:
            sys.exit("FAIL: a tour block does not start with a command")
if len(steps) < 10:
    sys.exit("FAIL: only %d commands in the tour" % len(steps))

def line_re(want):
    return re.compile("^" + ".*".join(re.escape(p) for p in want.split("...")) + "$")

def matches(got, want):
    # want[i] == "..." matches any run of lines; other lines match one
    memo = {}
    def m(i, j):
        if (i, j) in memo:
            return memo[i, j]
        if j == len(want):
            r = i == len(got)
        elif want[j] == "...":
            r = any(m(k, j + 1) for k in range(i, len(got) + 1))
        else:
            r = i < len(got) and line_re(want[j]).match(got[i]) is not None and m(i + 1, j + 1)
        memo[i, j] = r
        return r
    return m(0, 0)

fails = 0
for cmd, want in steps:
    argv = shlex.split(cmd)
    if argv[0] != "litmusc":
        print("FAIL: not a litmusc command: %s" % cmd)
        fails += 1
        continue
    p = subprocess.run([litmusc] + argv[1:], cwd=work, capture_output=True, text=True)
    got = p.stdout.rstrip("\n").split("\n") if p.stdout.strip() else []
    if p.returncode not in (0, 1) or not matches(got, want):
        fails += 1
        print("FAIL: %s (exit %d)" % (cmd, p.returncode))
        print("  README shows:\n    " + "\n    ".join(want))
        print("  it printed:\n    " + "\n    ".join(got))
        if p.stderr:
            print("  stderr: " + p.stderr.strip()[:300])
if fails:
    sys.exit(1)
print("readme_tour: %d commands of the README's tour print what it shows" % len(steps))
PY
