#!/usr/bin/env python3
"""Make the corpus's lock family: each C test of tests/corpus/c11 (other than
this family) with locks put around its threads' code in five ways.

  +Lall    every thread's whole body is one critical section of mutex m
  +Lsplit  every statement of every thread is its own critical section of m
           (tests whose bodies have braces are left out of this one)
  +Lone    only P0's body is a critical section of m
  +Ltwo    even threads' bodies on m, odd threads' on n: no exclusion
  +Lnest   every body inside m, then n (one order: no deadlock)

The locks are C11 mutexes (mtx_t, mtx_lock, mtx_unlock), which herd7 reads.
Kept: every variant of the classic family, and of the others the first 130
in the order of sha1("corpus:locks:NAME").
usage: gen.py CORPUS_C11_DIR OUT_DIR"""
import hashlib
import os
import re
import sys

HEAD = re.compile(r'^(P\d+)\s*\((.*)\)\s*\{\s*$')


def split_test(text):
    """(lines before the first thread, [(name, params, body lines)], lines after)"""
    lines = text.split('\n')
    pre, threads, post = [], [], []
    i = 0
    while i < len(lines) and not HEAD.match(lines[i]):
        pre.append(lines[i])
        i += 1
    while i < len(lines):
        m = HEAD.match(lines[i])
        if not m:
            if lines[i].strip() == '':
                i += 1
                continue
            break
        body, depth, i = [], 1, i + 1
        while i < len(lines):
            depth += lines[i].count('{') - lines[i].count('}')
            if depth == 0:
                break
            body.append(lines[i])
            i += 1
        threads.append((m.group(1), m.group(2), body))
        i += 1
    post = lines[i:]
    return pre, threads, post


def declared(body):
    """Registers declared in BODY ('int r0 = ...;'), hoisted so that a
    critical section's braces-free form keeps them in the thread's scope."""
    return [l for l in body if re.match(r'\s*int\s+r\d+\s*=', l)]


def wrap(body, mutexes):
    lk = ['  mtx_lock(%s);' % m for m in mutexes]
    ul = ['  mtx_unlock(%s);' % m for m in reversed(mutexes)]
    return lk + body + ul


def make(text, variant):
    pre, threads, post = split_test(text)
    if not threads:
        return None
    has_braces = any('{' in l or '}' in l for _, _, b in threads for l in b)
    if variant == 'split' and has_braces:
        return None
    if variant == 'two' and len(threads) < 2:
        return None
    out_threads = []
    for k, (name, params, body) in enumerate(threads):
        if variant == 'all':
            mx, nb = ['m'], wrap(body, ['m'])
        elif variant == 'split':
            mx, nb = ['m'], [x for l in body for x in wrap([l], ['m'])]
        elif variant == 'one':
            mx, nb = (['m'], wrap(body, ['m'])) if k == 0 else ([], body)
        elif variant == 'two':
            mu = 'm' if k % 2 == 0 else 'n'
            mx, nb = [mu], wrap(body, [mu])
        else:
            mx, nb = ['m', 'n'], wrap(body, ['m', 'n'])
        ps = ','.join(['mtx_t* %s' % m for m in mx] + ([params] if params.strip() else []))
        out_threads.append('%s (%s) {\n%s\n}\n' % (name, ps, '\n'.join(nb)))
    head = '\n'.join(pre)
    m = re.match(r'C (\S+)', head)
    if not m:
        return None
    name = m.group(1) + '+L' + variant
    head = head.replace('C ' + m.group(1), 'C ' + name, 1)
    return name, head + '\n' + '\n'.join(out_threads) + '\n'.join(post)


def main():
    src, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    classic, rest = [], []
    for root, dirs, files in sorted(os.walk(src)):
        dirs.sort()
        for f in sorted(files):
            if not f.endswith('.litmus'):
                continue
            text = open(os.path.join(root, f)).read()
            for v in ('all', 'split', 'one', 'two', 'nest'):
                r = make(text, v)
                if r:
                    (classic if os.path.basename(root) == 'classic' else rest).append(r)
    # a name two families share is kept once, from the classic family
    taken, unique = set(name for name, _ in classic), []
    for r in rest:
        if r[0] not in taken:
            taken.add(r[0])
            unique.append(r)
    rest = unique
    rest.sort(key=lambda r: hashlib.sha1(('corpus:locks:' + r[0]).encode()).hexdigest())
    kept = classic + rest[:130]
    for name, text in kept:
        open(os.path.join(out, name + '.litmus'), 'w').write(text)
    print(len(kept), 'of', len(classic) + len(rest), 'tests')


main()
