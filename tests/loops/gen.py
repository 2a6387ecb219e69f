#!/usr/bin/env python3
"""Make the spin-loop corpus: C tests in which a thread waits for a flag
with a while loop, as herd7's C reads it (herd has no do-while), each in
every combination of the access orders listed below.

  MP+spin     P0 writes x then the flag y; P1 spins until it sees y = 1,
              then reads x (plain or atomic data, fences or not)
  LB+spin     P0 spins on x, then writes y; P1 reads y, then writes x
  WRC+spin    P0 writes x; P1 spins on x, then writes y; P2 spins on y,
              then reads x
  SB+spin     P0 writes x, then reads y; P1 writes y, then spins until it
              sees P0's x
  ISA2+spin   P0 writes x, then y; P1 spins on y, then writes z; P2 spins
              on z, then reads x

usage: gen.py OUT_DIR"""
import os
import sys

ORD = {'rlx': 'memory_order_relaxed', 'acq': 'memory_order_acquire',
       'rel': 'memory_order_release', 'sc': 'memory_order_seq_cst'}


def load(loc, o):
    return '*%s' % loc if o == 'na' else 'atomic_load_explicit(%s, %s)' % (loc, ORD[o])


def store(loc, v, o):
    return '*%s = %d;' % (loc, v) if o == 'na' else 'atomic_store_explicit(%s, %d, %s);' % (loc, v, ORD[o])


def spin(reg, loc, o):
    return ['  int %s = 0;' % reg, '  while (%s == 0) { %s = %s; }' % (reg, reg, load(loc, o))]


def param(loc, o):
    return ('int* %s' if o == 'na' else 'atomic_int* %s') % loc


def test(name, threads, cond, locs):
    out = ['C ' + name, '{ ' + ' '.join('%s=0;' % l for l in locs) + ' }', '']
    for i, (params, body) in enumerate(threads):
        out.append('P%d (%s) {' % (i, ', '.join(params)))
        out.extend(body)
        out.append('}')
        out.append('')
    out.append(cond)
    return '\n'.join(out) + '\n'


def fence(o):
    return ['  atomic_thread_fence(%s);' % ORD[o]]


def mp():
    for data in ('na', 'rlx'):
        for ws in ('rlx', 'rel', 'sc'):
            for rs in ('rlx', 'acq', 'sc'):
                for fences in ('', '+fences'):
                    if fences and (ws != 'rlx' or rs != 'rlx'):
                        continue
                    p0 = ['  ' + store('x', 1, data)]
                    if fences:
                        p0 += fence('rel')
                    p0 += ['  ' + store('y', 1, ws)]
                    p1 = spin('r0', 'y', rs)
                    if fences:
                        p1 += fence('acq')
                    p1 += ['  int r1 = %s;' % load('x', data)]
                    name = 'MP+spin+%s+%s%s%s' % (data, ws, rs, fences)
                    yield name, test(name, [([param('x', data), param('y', 'rlx')], p0),
                                            ([param('x', data), param('y', 'rlx')], p1)],
                                     'exists (1:r1=0)', ['x', 'y'])


def lb():
    for a in ('rlx', 'acq'):
        for b in ('rlx', 'rel'):
            for c in ('rlx', 'acq'):
                for d in ('rlx', 'rel'):
                    p0 = spin('r0', 'x', a) + ['  ' + store('y', 1, b)]
                    p1 = ['  int r1 = %s;' % load('y', c), '  ' + store('x', 1, d)]
                    name = 'LB+spin+%s%s+%s%s' % (a, b, c, d)
                    ps = [param('x', 'rlx'), param('y', 'rlx')]
                    yield name, test(name, [(ps, p0), (ps, p1)], 'exists (1:r1=1)', ['x', 'y'])


def wrc():
    for w in ('rlx', 'rel', 'sc'):
        for r in ('rlx', 'acq', 'sc'):
            ps = [param('x', 'rlx'), param('y', 'rlx')]
            p0 = ['  ' + store('x', 1, w)]
            p1 = spin('r0', 'x', r) + ['  ' + store('y', 1, w)]
            p2 = spin('r1', 'y', r) + ['  int r2 = %s;' % load('x', r)]
            name = 'WRC+spin+%s%s' % (w, r)
            yield name, test(name, [(ps, p0), (ps, p1), (ps, p2)], 'exists (2:r2=0)', ['x', 'y'])


def sb():
    for o in ('rlx', 'sc'):
        for f in ('', '+fence'):
            if f and o == 'sc':
                continue
            ps = [param('x', 'rlx'), param('y', 'rlx')]
            p0 = ['  ' + store('x', 1, o)] + (fence('sc') if f else []) + ['  int r0 = %s;' % load('y', o)]
            p1 = ['  ' + store('y', 1, o)] + (fence('sc') if f else []) + spin('r1', 'x', o)
            name = 'SB+spin+%s%s' % (o, f)
            yield name, test(name, [(ps, p0), (ps, p1)], 'exists (0:r0=0)', ['x', 'y'])


def isa2():
    for w in ('rlx', 'rel'):
        for r in ('rlx', 'acq'):
            ps = [param('x', 'na'), param('y', 'rlx'), param('z', 'rlx')]
            p0 = ['  ' + store('x', 1, 'na'), '  ' + store('y', 1, w)]
            p1 = spin('r0', 'y', r) + ['  ' + store('z', 1, w)]
            p2 = spin('r1', 'z', r) + ['  int r2 = %s;' % load('x', 'na')]
            name = 'ISA2+spin+%s%s' % (w, r)
            yield name, test(name, [(ps, p0), (ps, p1), (ps, p2)], 'exists (2:r2=0)', ['x', 'y', 'z'])


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    n = 0
    for family in (mp, lb, wrc, sb, isa2):
        for name, text in family():
            with open(os.path.join(out, name + '.litmus'), 'w') as f:
                f.write(text)
            n += 1
    print('%d tests' % n)


main()
