#!/usr/bin/env python3
"""A mutation fuzzer for litmusc's inputs (bench/fuzz.sh runs it).

Kinds of input, each mutated from seeds of its own kind:
  x86, x86_64, c, java  litmus tests (tests/corpus, examples, tests/bad*,
                        the loop and lock tests): `ir --check`, then `model`
                        (C also `races`)
  cat                   the built-in models and tests/bad_cat: `model --model`
                        on a small test
  ir                    IR text that `litmusc ir` prints for the seeds:
                        `ir --read --check`
  elf                   a C test through `cc-check --cc WRAPPER`, the wrapper
                        running gcc and then corrupting bytes of the object
                        (the symbol table, the section headers, the code)
Mutations: byte flips, deleted, repeated or swapped lines and chunks, a
seed's lines spliced in, numbers made huge, tokens of tests/fuzz/litmus.dict.
Every run has a CPU limit (--timeout, default 10 s) and ten times that of
wall time; the model runs with a budget of half of it.  An outcome is an
exit status 0-3 (a verdict, or a refusal with a message), or one of:
crash (a signal, or an exit status past 3), sanitizer (an AddressSanitizer
or UBSan report), timeout, nomsg (exit 2 or 3 without an error message).
Inputs with one of those are kept in --keep DIR.  Prints a table of counts
by kind and outcome; exits 1 when any input found one.
"""
import argparse
import os
import random
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..'))
KINDS = ['x86', 'x86_64', 'c', 'java', 'cat', 'ir', 'elf']
BAD = ('crash', 'sanitizer', 'timeout', 'nomsg')


def arch_of(text):
    head = text.split(None, 1)[0] if text.strip() else ''
    return {'X86': 'x86', 'X86_64': 'x86_64', 'C': 'c', 'Java': 'java'}.get(head)


def collect_seeds():
    """Seeds by kind, as bytes."""
    seeds = {k: [] for k in KINDS}
    for top in ('tests/corpus', 'examples', 'tests/bad', 'tests/loops', 'tests/locks', 'tests/cas',
                'tests/x86_64', 'tests/jls04', 'tests/fuzz/seeds'):
        for dirpath, _, files in os.walk(os.path.join(ROOT, top)):
            for f in sorted(files):
                if not f.endswith('.litmus'):
                    continue
                data = open(os.path.join(dirpath, f), 'rb').read()
                kind = arch_of(data.decode('latin-1'))
                if kind:
                    seeds[kind].append(data)
    for d in ('model/cat', 'tests/bad_cat'):
        for f in sorted(os.listdir(os.path.join(ROOT, d))):
            if f.endswith('.cat'):
                seeds['cat'].append(open(os.path.join(ROOT, d, f), 'rb').read())
    return seeds


def load_dict():
    toks = []
    path = os.path.join(ROOT, 'tests/fuzz/litmus.dict')
    for line in open(path, encoding='latin-1'):
        m = re.match(r'^"(.*)"\s*$', line.strip())
        if m:
            toks.append(m.group(1).replace('\\\\', '\\').encode('latin-1'))
    toks += [b'Unroll=1000', b'do {', b'} while (r0 == 0);', b'(', b')', b'^-1', b'let rec f x = f x',
             b'2147483648', b'-9223372036854775808', b'99999999999999999999', b'\x00', b'\xff', b'%s%n']
    return toks


def mutate(rng, data, pool, toks):
    """One to three mutations of DATA (mostly one: most inputs should get past the parser)."""
    b = bytearray(data)
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        op = rng.randrange(9)
        if not b:
            b += rng.choice(toks)
            continue
        i = rng.randrange(len(b))
        if op == 0:                                     # flip bits
            for _ in range(rng.randint(1, 8)):
                j = rng.randrange(len(b))
                b[j] ^= 1 << rng.randrange(8)
        elif op == 1:                                   # delete a chunk
            del b[i:i + rng.randint(1, 64)]
        elif op == 2:                                   # repeat a chunk
            n = rng.randint(1, 64)
            b[i:i] = b[i:i + n] * rng.randint(2, 50)
        elif op == 3:                                   # a token in
            b[i:i] = rng.choice(toks)
        elif op == 4:                                   # a number made huge or odd
            m = list(re.finditer(rb'\d+', bytes(b)))
            if m:
                x = rng.choice(m)
                b[x.start():x.end()] = rng.choice([b'0', b'1', b'65', b'129', b'1000', b'4294967296',
                                                   b'18446744073709551616', b'-1', b'99999'])
        elif op == 5:                                   # lines: delete, repeat or swap
            lines = bytes(b).split(b'\n')
            k = rng.randrange(len(lines))
            r = rng.randrange(3)
            if r == 0:
                del lines[k]
            elif r == 1:
                lines[k:k] = [lines[k]] * rng.randint(1, 40)
            else:
                k2 = rng.randrange(len(lines))
                lines[k], lines[k2] = lines[k2], lines[k]
            b = bytearray(b'\n'.join(lines))
        elif op == 6:                                   # splice another seed's lines in
            other = rng.choice(pool).split(b'\n')
            s = rng.randrange(len(other))
            lines = bytes(b).split(b'\n')
            k = rng.randrange(len(lines) + 1)
            lines[k:k] = other[s:s + rng.randint(1, 8)]
            b = bytearray(b'\n'.join(lines))
        elif op == 7:                                   # nest: wrap a chunk in brackets
            n = rng.randint(1, 40)
            o, c = rng.choice([(b'(', b')'), (b'{', b'}'), (b'[', b']')])
            b[i:i] = o * n
            j = min(len(b), i + n + rng.randint(1, 40))
            b[j:j] = c * n
        else:                                           # truncate
            del b[i:]
    return bytes(b)


def run(cmd, cpu, env=None, cwd=None):
    """(status or None for a timeout, stderr)."""
    def limit():
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
        os.setsid()
    try:
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, preexec_fn=limit,
                           timeout=cpu * 10, env=env, cwd=cwd)
    except subprocess.TimeoutExpired as e:
        return None, (e.stderr or b'').decode('latin-1')
    err = p.stderr.decode('latin-1')
    if p.returncode in (-signal.SIGXCPU, -signal.SIGKILL) or p.returncode == 128 + signal.SIGXCPU:
        return None, err
    return p.returncode, err


def classify(rc, err):
    if rc is None:
        return 'timeout'
    if 'ERROR: AddressSanitizer' in err or 'runtime error:' in err or 'ERROR: LeakSanitizer' in err:
        return 'sanitizer'
    if rc < 0 or rc > 3:
        return 'crash'
    if rc in (2, 3) and 'error' not in err:
        return 'nomsg'
    return 'exit%d' % rc


WRAPPER = r'''#!/bin/sh
# gcc, then FUZZ_FLIPS random bytes of the object (seeded by FUZZ_SEED)
# overwritten: in the section headers, the symbol table or anywhere.
out=
prev=
for a in "$@"; do [ "$prev" = -o ] && out=$a; prev=$a; done
gcc "$@" || exit $?
[ -n "$out" ] && [ -f "$out" ] || exit 0
exec python3 - "$out" <<'EOF'
import os, random, sys
p = sys.argv[1]
b = bytearray(open(p, 'rb').read())
rng = random.Random(int(os.environ.get('FUZZ_SEED', '0')))
shoff = int.from_bytes(b[0x28:0x30], 'little') if len(b) > 0x40 else 0
for _ in range(int(os.environ.get('FUZZ_FLIPS', '4'))):
    where = rng.randrange(3)
    if where == 0 and 0 < shoff < len(b):
        i = rng.randrange(shoff, len(b))
    elif where == 1:
        i = rng.randrange(min(len(b), 0x40))
    else:
        i = rng.randrange(len(b))
    b[i] = rng.randrange(256)
open(p, 'wb').write(bytes(b))
EOF
'''


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--bin', default=os.path.join(ROOT, 'bin/litmusc'))
    ap.add_argument('-n', type=int, default=5000)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--timeout', type=int, default=10)
    ap.add_argument('--kinds', default=','.join(KINDS))
    ap.add_argument('--keep', default=None)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    kinds = a.kinds.split(',')
    seeds = collect_seeds()
    toks = load_dict()
    tmp = tempfile.mkdtemp(prefix='litmusc-fuzz-')
    env = dict(os.environ, LITMUSC_CACHE=os.path.join(tmp, 'cache'),
               ASAN_OPTIONS='detect_leaks=1:abort_on_error=0', UBSAN_OPTIONS='print_stacktrace=1')
    budget = ['--timeout', str(max(1, a.timeout // 2)), '--max-candidates', '200000']
    sb = os.path.join(ROOT, 'tests/corpus/java/classic/SB.litmus')
    # IR text seeds: what `litmusc ir` prints for a sample of the litmus seeds
    for k in ('x86', 'c', 'java'):
        for s in seeds[k][:40]:
            path = os.path.join(tmp, 'seed.litmus')
            open(path, 'wb').write(s)
            p = subprocess.run([a.bin, 'ir', path], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            if p.returncode == 0 and p.stdout:
                seeds['ir'].append(p.stdout)
    cseeds = [s for s in seeds['c'] if b'exists' in s][:60]
    wrapper = os.path.join(tmp, 'cc-corrupt')
    open(wrapper, 'w').write(WRAPPER)
    os.chmod(wrapper, 0o755)
    counts = {}
    found = []
    for n in range(a.n):
        kind = kinds[n % len(kinds)]
        pool = seeds[kind if kind != 'elf' else 'c'] or seeds['c']
        path = os.path.join(tmp, 'in%d' % n)
        runs = []
        if kind == 'elf':
            data = rng.choice(cseeds)
            path += '.litmus'
            open(path, 'wb').write(data)
            e = dict(env, FUZZ_SEED=str(rng.randrange(1 << 30)), FUZZ_FLIPS=str(rng.randint(1, 16)))
            runs.append(([a.bin, 'cc-check', '--cc', wrapper] + budget + [path], e))
        else:
            data = mutate(rng, rng.choice(pool), pool, toks)
            if kind == 'cat':
                path += '.cat'
                open(path, 'wb').write(data)
                runs.append(([a.bin, 'model', '--model', path] + budget + [sb], env))
            elif kind == 'ir':
                path += '.ir'
                open(path, 'wb').write(data)
                runs.append(([a.bin, 'ir', '--read', '--check', path], env))
            else:
                path += '.litmus'
                open(path, 'wb').write(data)
                runs.append(([a.bin, 'ir', '--check', path], env))
                runs.append(([a.bin, 'model'] + budget + [path], env))
                if kind == 'c':
                    runs.append(([a.bin, 'races'] + budget + [path], env))
        worst = None
        for cmd, e in runs:
            rc, err = run(cmd, a.timeout, env=e)
            out = classify(rc, err)
            if worst is None or out in BAD:
                worst = out
            if out in BAD:
                found.append((kind, out, ' '.join(cmd[1:2]), err[-400:]))
                if a.keep:
                    os.makedirs(a.keep, exist_ok=True)
                    shutil.copy(path, os.path.join(a.keep, '%s-%s-%d%s' % (kind, out, n, os.path.splitext(path)[1])))
                break
        counts[(kind, worst)] = counts.get((kind, worst), 0) + 1
        os.unlink(path)
        if n % 500 == 499:
            print('fuzz: %d inputs' % (n + 1), file=sys.stderr)
    shutil.rmtree(tmp, ignore_errors=True)
    outs = ['exit0', 'exit1', 'exit2', 'exit3'] + list(BAD)
    print('| kind | inputs | ' + ' | '.join(outs) + ' |')
    print('|---|' + '---:|' * (len(outs) + 1))
    for k in kinds:
        row = [counts.get((k, o), 0) for o in outs]
        print('| %s | %d | %s |' % (k, sum(row), ' | '.join(str(x) for x in row)))
    tot = [sum(counts.get((k, o), 0) for k in kinds) for o in outs]
    print('| all | %d | %s |' % (sum(tot), ' | '.join(str(x) for x in tot)))
    for kind, out, cmd, err in found[:20]:
        print('found: %s %s (%s): %s' % (kind, out, cmd, err.strip().splitlines()[-1] if err.strip() else ''))
    return 1 if found else 0


if __name__ == '__main__':
    sys.exit(main())
