"""rktlcs: Levenshtein distance and CIGAR, LCS, hamming matrices and Rkt-LCS of DNA sequences,
over librktlcs (the rktlcs command's kernels; docs/library.md). Strings or bytes in, Python
ints and strings out; hamming gives a numpy array where numpy is installed.

    >>> import rktlcs
    >>> rktlcs.lev("ACGT", "AGT")
    1
    >>> rktlcs.lcs("ACGT", "AGT")
    3
"""
import ctypes
import ctypes.util
import os

__all__ = ["lev", "align", "lev_batch", "lcs", "lcs_align", "hamming", "rkt", "version", "Error"]


class Error(Exception):
    """librktlcs refused the input (bad arguments) or ran out of memory."""


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    names = [os.environ.get("RKTLCS_LIB", "")]
    # installed: PREFIX/lib/python3/dist-packages/rktlcs.py beside PREFIX/LIBDIR/librktlcs.so.0
    for libdir in ("lib", "lib64", "lib/x86_64-linux-gnu"):
        names.append(os.path.join(here, "..", "..", "..", libdir, "librktlcs.so.0"))
    names.append(ctypes.util.find_library("rktlcs") or "")
    for n in names:
        if n and (os.path.exists(n) or not os.path.sep in n):
            try:
                return ctypes.CDLL(n)
            except OSError:
                pass
    raise ImportError("librktlcs not found (install rktlcs, or set RKTLCS_LIB to librktlcs.so)")


_L = _load()
_i64 = ctypes.c_int64
_P = ctypes.POINTER


class _LevOpt(ctypes.Structure):
    _fields_ = [("mode", ctypes.c_int), ("k", _i64), ("cigar", ctypes.c_int), ("threads", ctypes.c_int)]


class _LevRes(ctypes.Structure):
    _fields_ = [("distance", _i64), ("b_start", _i64), ("b_end", _i64), ("cigar", ctypes.c_void_p)]


class _LcsOpt(ctypes.Structure):
    _fields_ = [("subsequence", ctypes.c_int), ("cigar", ctypes.c_int), ("threads", ctypes.c_int)]


class _LcsRes(ctypes.Structure):
    _fields_ = [("length", _i64), ("subsequence", ctypes.c_void_p), ("cigar", ctypes.c_void_p)]


class _HamOpt(ctypes.Structure):
    _fields_ = [("all", ctypes.c_int), ("keep_case", ctypes.c_int), ("threads", ctypes.c_int)]


class _RktRes(ctypes.Structure):
    _fields_ = [("read", _i64), ("pos", _i64), ("length", _i64), ("support", _i64)]


_seqs = ctypes.POINTER(ctypes.c_char_p)
_L.rkl_error.restype = ctypes.c_char_p
_L.rkl_version.restype = ctypes.c_char_p
_L.rkl_lev_batch.argtypes = [_i64, _seqs, _P(_i64), _seqs, _P(_i64), _P(_LevOpt), _P(_LevRes)]
_L.rkl_lcs_batch.argtypes = [_i64, _seqs, _P(_i64), _seqs, _P(_i64), _P(_LcsOpt), _P(_LcsRes)]
_L.rkl_hamming.argtypes = [_i64, _seqs, _i64, _P(_HamOpt), _P(_i64)]
_L.rkl_rkt.argtypes = [_i64, _seqs, _P(_i64), _i64, _i64, _i64, ctypes.c_int, _P(_RktRes)]
_L.rkl_lev_result_free.argtypes = [_P(_LevRes)]
_L.rkl_lcs_result_free.argtypes = [_P(_LcsRes)]
_MODES = {"global": 0, "prefix": 1, "infix": 2, "NW": 0, "SHW": 1, "HW": 2}


def version():
    return _L.rkl_version().decode()


def _b(s):
    return s if isinstance(s, bytes) else str(s).encode()


def _arr(seqs):
    bs = [_b(s) for s in seqs]
    return bs, (ctypes.c_char_p * max(1, len(bs)))(*bs), (_i64 * max(1, len(bs)))(*[len(s) for s in bs])


def _check(st):
    if st:
        raise MemoryError(_L.rkl_error().decode()) if st == 2 else Error(_L.rkl_error().decode())


def _text(p):
    return ctypes.string_at(p).decode() if p else None


def _lev(a, b, k, mode, cigar, threads):
    if len(a) != len(b):
        raise ValueError("as many sequences in a as in b")
    if mode not in _MODES:
        raise ValueError("mode: global, prefix or infix")
    ka, pa, la = _arr(a)
    kb, pb, lb = _arr(b)
    o = _LevOpt(_MODES[mode], -1 if k is None or k < 0 else k, 1 if cigar else 0, threads)
    r = (_LevRes * max(1, len(a)))()
    _check(_L.rkl_lev_batch(len(a), pa, la, pb, lb, ctypes.byref(o), r))
    out = []
    for x in r[:len(a)]:
        out.append({"distance": x.distance, "start": x.b_start, "end": x.b_end, "cigar": _text(x.cigar)})
        _L.rkl_lev_result_free(ctypes.byref(x))
    return out


def lev(a, b, k=-1, mode="global", threads=0):
    """The Levenshtein distance of a and b (-1 when k >= 0 and it is over k). mode: global
    (all of b), prefix (b's end free) or infix (both ends of b free), as edlib's NW, SHW, HW."""
    return _lev([a], [b], k, mode, False, threads)[0]["distance"]


def align(a, b, k=-1, mode="global", threads=0):
    """dict(distance, start, end, cigar): the distance, the piece of b aligned [start, end) and
    the CIGAR (=, X, I, D; I consumes a), as `rktlcs lev --path` gives them."""
    return _lev([a], [b], k, mode, True, threads)[0]


def lev_batch(a, b, k=-1, mode="global", cigar=False, threads=0):
    """Pairs a[i], b[i]: a list of distances, or with cigar=True of align()'s dicts."""
    r = _lev(a, b, k, mode, cigar, threads)
    return r if cigar else [x["distance"] for x in r]


def _lcs(a, b, want, threads):
    ka, pa, la = _arr(a)
    kb, pb, lb = _arr(b)
    o = _LcsOpt(1 if want else 0, 1 if want else 0, threads)
    r = (_LcsRes * max(1, len(a)))()
    _check(_L.rkl_lcs_batch(len(a), pa, la, pb, lb, ctypes.byref(o), r))
    out = []
    for x in r[:len(a)]:
        out.append({"length": x.length, "subsequence": _text(x.subsequence), "cigar": _text(x.cigar)})
        _L.rkl_lcs_result_free(ctypes.byref(x))
    return out


def lcs(a, b, threads=0):
    """The length of a longest common subsequence of a and b."""
    return _lcs([a], [b], False, threads)[0]["length"]


def lcs_align(a, b, threads=0):
    """dict(length, subsequence, cigar): the LCS, its letters and its path (M, I, D), as
    `rktlcs lcs --seq --path` gives them."""
    return _lcs([a], [b], True, threads)[0]


def hamming(seqs, all=False, keep_case=False, threads=0):
    """The n x n distance matrix of sequences of one length (snp-dists' rules: only A/C/G/T
    against a different A/C/G/T counts unless all=True): a numpy array where numpy is present,
    else a list of lists."""
    ks, p, lens = _arr(seqs)
    n = len(ks)
    if n and len(set(len(s) for s in ks)) != 1:
        raise ValueError("hamming: the sequences must all have one length (an alignment)")
    d = (_i64 * max(1, n * n))()
    o = _HamOpt(1 if all else 0, 1 if keep_case else 0, threads)
    _check(_L.rkl_hamming(n, p, len(ks[0]) if n else 0, ctypes.byref(o), d))
    try:
        import numpy
        return numpy.ctypeslib.as_array(d)[:n * n].reshape(n, n).copy()
    except ImportError:
        return [list(d[i * n:(i + 1) * n]) for i in range(n)]


def rkt(reads, k, t, tau, threads=0):
    """The Rkt-LCS of a read set: dict(read, pos, length, support, substring), or None."""
    ks, p, lens = _arr(reads)
    r = _RktRes()
    _check(_L.rkl_rkt(len(ks), p, lens, k, t, tau, threads, ctypes.byref(r)))
    if r.read < 0:
        return None
    s = ks[r.read][r.pos:r.pos + r.length].decode().upper().replace("U", "T")
    return {"read": r.read, "pos": r.pos, "length": r.length, "support": r.support, "substring": s}
