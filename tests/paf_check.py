#!/usr/bin/env python3
"""An independent PAF reader for rktlcs lev/lcs --format paf (shares no code with src/).

Usage: paf_check.py KIND A.fa B.fa|- out.paf
  KIND: lev-global, lev-prefix, lev-infix, lcs; B '-' for --all (pairs of A).
  Env PAF_K: lev -k (pairs beyond it must be no-hit lines).
For every line: twelve columns, strand +, mapq 255, NM:i: and cg:Z:; cg:Z: replayed against
the two sequences between the line's coordinates (= equal symbols, X unequal, I a query
symbol, D a target symbol, consuming exactly qstart..qend and tstart..tend); matches, block
length and NM recounted; and the optimum checked by a DP written here: the edit distance of
the whole query against the whole target (global), a target prefix (prefix) or any target
piece (infix; tend must be the first end with it, tstart the smallest start), or the LCS.
Exit 0 when every line passes (it prints the count), 1 otherwise."""
import os
import re
import sys


def read_fasta(path):
    recs, name, seq = [], None, []
    with open(path) as f:
        for line in f:
            line = line.rstrip('\n')
            if line.startswith('>'):
                if name is not None:
                    recs.append((name, ''.join(seq)))
                name, seq = line[1:].split()[0] if line[1:].split() else '', []
            elif line and not line.startswith(';'):
                seq.append(line.strip())
    if name is not None:
        recs.append((name, ''.join(seq)))
    return [(n, s.upper().replace('U', 'T')) for n, s in recs]


def last_row(a, b, top_free):
    """edit DP of a against b; row len(a), with row 0 = 0 (top_free) or j"""
    prev = [0] * (len(b) + 1) if top_free else list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        ai = a[i - 1]
        for j in range(1, len(b) + 1):
            cur[j] = min(prev[j - 1] + (ai != b[j - 1]), prev[j] + 1, cur[j - 1] + 1)
        prev = cur
    return prev


def lcs_len(a, b):
    prev = [0] * (len(b) + 1)
    for i in range(1, len(a) + 1):
        cur = [0] * (len(b) + 1)
        for j in range(1, len(b) + 1):
            cur[j] = prev[j - 1] + 1 if a[i - 1] == b[j - 1] else max(prev[j], cur[j - 1])
        prev = cur
    return prev[-1]


def pairs(A, B):
    if B is None:
        return [(A[i], A[j]) for i in range(len(A)) for j in range(i + 1, len(A))]
    if len(A) == 1:
        return [(A[0], b) for b in B]
    if len(B) == 1:
        return [(a, B[0]) for a in A]
    return list(zip(A, B))


def check_line(kind, k, f, q, t):
    """returns an error string, or None"""
    qn, qs = q
    tn, ts = t
    if len(f) < 12:
        return 'fewer than 12 columns'
    if f[0] != qn or f[5] != tn or int(f[1]) != len(qs) or int(f[6]) != len(ts):
        return 'names or lengths differ from the inputs (%s %s)' % (qn, tn)
    if f[4] == '*':   # a no-hit line: only for a pair beyond -k
        d = min(last_row(qs, ts, kind == 'lev-infix')) if kind != 'lev-global' else last_row(qs, ts, False)[-1]
        if kind == 'lev-prefix':
            d = min(last_row(qs, ts, False))
        if k is None or d <= k or f[2:4] != ['0', '0'] or f[7:12] != ['0'] * 5:
            return 'a no-hit line for a pair at distance %d (k %s)' % (d, k)
        return None
    qs0, qe, t0, te, match, block, mapq = (int(x) for x in (f[2], f[3], f[7], f[8], f[9], f[10], f[11]))
    if f[4] != '+' or mapq != 255:
        return 'strand %s mapq %d' % (f[4], mapq)
    tags = dict((x[:2], x[5:]) for x in f[12:])
    if 'NM' not in tags or 'cg' not in tags:
        return 'no NM:i: or cg:Z:'
    nm = int(tags['NM'])
    cg = tags['cg']
    if not re.fullmatch(r'(\d+[=XID])*', cg):
        return 'bad CIGAR %s' % cg
    i, j, m, x, ins, dels = qs0, t0, 0, 0, 0, 0
    for n, op in re.findall(r'(\d+)([=XID])', cg):
        n = int(n)
        if op in '=X':
            for _ in range(n):
                if i >= qe or j >= te:
                    return 'CIGAR runs past the coordinates'
                if (qs[i] == ts[j]) != (op == '='):
                    return '%s at query %d target %d (%s, %s)' % (op, i, j, qs[i], ts[j])
                i += 1
                j += 1
            if op == '=':
                m += n
            else:
                x += n
        elif op == 'I':
            i += n
            ins += n
        else:
            j += n
            dels += n
    if i != qe or j != te:
        return 'CIGAR consumes query to %d (qend %d), target to %d (tend %d)' % (i, qe, j, te)
    if m != match or m + x + ins + dels != block or x + ins + dels != nm:
        return 'matches %d block %d NM %d, recounted %d %d %d' % (match, block, nm, m, m + x + ins + dels, x + ins + dels)
    if qs0 != 0 or qe != len(qs):
        return 'the query is not aligned whole'
    if kind == 'lcs':
        if x or t0 or te != len(ts) or m != lcs_len(qs, ts):
            return 'lcs %d, DP %d' % (m, lcs_len(qs, ts))
    elif kind == 'lev-global':
        if t0 or te != len(ts) or nm != last_row(qs, ts, False)[-1]:
            return 'distance %d, DP %d' % (nm, last_row(qs, ts, False)[-1])
    else:
        row = last_row(qs, ts, kind == 'lev-infix')
        best = min(row)
        if nm != best or te != row.index(best):
            return 'distance %d end %d, DP %d first end %d' % (nm, te, best, row.index(best))
        if kind == 'lev-prefix' and t0:
            return 'prefix alignment starts at %d' % t0
        if kind == 'lev-infix':
            s0 = next(s for s in range(te + 1) if last_row(qs, ts[s:te], False)[-1] == best)
            if t0 != s0:
                return 'start %d, smallest start with the distance %d' % (t0, s0)
    if k is not None and nm > k:
        return 'distance %d beyond -k %d' % (nm, k)
    return None


def main():
    kind, fa, fb, paf = sys.argv[1:5]
    k = int(os.environ['PAF_K']) if os.environ.get('PAF_K') else None
    A = read_fasta(fa)
    B = None if fb == '-' else read_fasta(fb)
    want = pairs(A, B)
    with open(paf) as f:
        lines = [l.rstrip('\n').split('\t') for l in f if l.strip()]
    if len(lines) != len(want):
        print('paf_check: %d lines, %d pairs' % (len(lines), len(want)))
        return 1
    bad = 0
    for n, (f, (q, t)) in enumerate(zip(lines, want)):
        err = check_line(kind, k, f, q, t)
        if err:
            bad += 1
            if bad <= 10:
                print('paf_check: line %d (%s %s): %s' % (n + 1, q[0], t[0], err))
    print('paf_check %s: %d lines, %d bad' % (kind, len(lines), bad))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
