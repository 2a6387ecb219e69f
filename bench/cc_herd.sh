#!/bin/sh
# herd7 on every file cc-check lifts: each C test of tests/corpus and
# examples/ under gcc and clang at -O0 -O1 -O2 -O3 -Os, written with
# --out, then run through herd7 (with -variant telechat where the file's
# header asks for it) and through `litmusc model`; prints how many herd7
# reads, how many give the same states, the refusals by reason, and the
# time of each.  herd7 is not part of the project: HERD names it (with
# any options it needs, e.g. "herd7 -I /path/to/libdir").
#   HERD=... sh bench/cc_herd.sh [LITMUSC]
set -u
L=${1:-${LITMUSC:-bin/litmusc}}
: "${HERD:?HERD must name herd7 (7.57), e.g. HERD=\"herd7 -I DIR\"}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/files"
files=$(grep -l '^C ' $(find tests/corpus examples -name '*.litmus' | sort) 2>/dev/null)
start=$(date +%s)
for f in $files; do
  "$L" cc-check --cc gcc --cc clang --cflags -O0 --cflags -O1 --cflags -O2 --cflags -O3 --cflags -Os \
      --out "$tmp/files" "$f" > /dev/null 2>&1
done
echo "cc-check: $(ls "$tmp/files" | wc -l) lifted files in $(( $(date +%s) - start )) s"
python3 - "$L" "$HERD" "$tmp/files" <<'PY'
import collections, os, re, shlex, subprocess, sys, time
lit, herd, d = sys.argv[1], shlex.split(sys.argv[2]), sys.argv[3]
files = sorted(f for f in os.listdir(d) if f.endswith('.litmus'))

def states(text):
    st, on = [], False
    for line in text.splitlines():
        if line.startswith('States '):
            on = True
        elif on and re.match(r'^(Loop )?(Ok|No|Undef)$', line):
            return sorted(st)
        elif on:
            st.append(line.strip())
    return None

same, diff, refused, failed = 0, [], collections.Counter(), []
th = tl = 0.0
for f in files:
    p = os.path.join(d, f)
    head = open(p).read().split('{', 1)[0]
    variant = ['-variant', 'telechat'] if 'telechat' in head else []
    t0 = time.time()
    h = subprocess.run(herd + variant + [p], capture_output=True, text=True)
    t1 = time.time()
    l = subprocess.run([lit, 'model', p], capture_output=True, text=True)
    t2 = time.time()
    th += t1 - t0
    tl += t2 - t1
    hs, ls = states(h.stdout), states(l.stdout)
    if hs is None:
        why = (h.stderr.strip().splitlines() or ['no output'])[0]
        why = re.sub(r'File "[^"]*"[^:]*: ', '', why)
        refused[re.sub(r'\bL\w*\d\w*', 'L...', why)] += 1
    elif ls is None:
        failed.append((f, l.stderr.strip()[:160]))
    elif hs == ls:
        same += 1
    else:
        diff.append(f)
print("lifted files %d: herd7 reads %d, the same states %d, different %d, herd7 refuses %d, litmusc fails %d"
      % (len(files), same + len(diff), same, len(diff), sum(refused.values()), len(failed)))
for why, n in refused.most_common():
    print("  herd7 refuses %d: %s" % (n, why))
for f in diff[:20]:
    print("  different states: %s" % f)
for f, why in failed[:10]:
    print("  litmusc fails: %s: %s" % (f, why))
print("one process per file: herd7 %.1f s, litmusc model %.1f s" % (th, tl))
t0 = time.time()
subprocess.run([lit, 'model'] + [os.path.join(d, f) for f in files], capture_output=True)
print("litmusc model on all %d files in one process: %.2f s" % (len(files), time.time() - t0))
PY
