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

__all__ = ["lev", "align", "lev_batch", "lcs", "lcs_align", "hamming", "hamming_pairs", "rkt", "rkt_candidates",
           "version", "gpu_count", "Error", "DeviceError"]


class Error(Exception):
    """librktlcs refused the input (bad arguments) or ran out of memory."""


class DeviceError(Error):
    """The GPU asked for (gpu=N) is not there, the library was built without CUDA, or the device failed."""


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
    _fields_ = [("mode", ctypes.c_int), ("k", _i64), ("cigar", ctypes.c_int), ("threads", ctypes.c_int), ("gpu", ctypes.c_int)]


class _LevRes(ctypes.Structure):
    _fields_ = [("distance", _i64), ("b_start", _i64), ("b_end", _i64), ("cigar", ctypes.c_void_p)]


class _LcsOpt(ctypes.Structure):
    _fields_ = [("subsequence", ctypes.c_int), ("cigar", ctypes.c_int), ("threads", ctypes.c_int), ("gpu", ctypes.c_int)]


class _LcsRes(ctypes.Structure):
    _fields_ = [("length", _i64), ("subsequence", ctypes.c_void_p), ("cigar", ctypes.c_void_p)]


class _HamOpt(ctypes.Structure):
    _fields_ = [("all", ctypes.c_int), ("keep_case", ctypes.c_int), ("threads", ctypes.c_int), ("gpu", ctypes.c_int)]


class _RktRes(ctypes.Structure):
    _fields_ = [("read", _i64), ("pos", _i64), ("length", _i64), ("support", _i64)]


class _RktOpt(ctypes.Structure):
    _fields_ = [("k", _i64), ("t", _i64), ("tau", _i64), ("threads", ctypes.c_int), ("gpu", ctypes.c_int)]


class _HamPair(ctypes.Structure):
    _fields_ = [("i", _i64), ("j", _i64), ("distance", _i64)]


class _RktOcc(ctypes.Structure):
    _fields_ = [("read", _i64), ("pos", _i64), ("mismatches", _i64)]


_seqs = ctypes.POINTER(ctypes.c_char_p)
_L.rkl_error.restype = ctypes.c_char_p
_L.rkl_version.restype = ctypes.c_char_p
_L.rkl_lev_batch.argtypes = [_i64, _seqs, _P(_i64), _seqs, _P(_i64), _P(_LevOpt), _P(_LevRes)]
_L.rkl_lcs_batch.argtypes = [_i64, _seqs, _P(_i64), _seqs, _P(_i64), _P(_LcsOpt), _P(_LcsRes)]
_L.rkl_hamming.argtypes = [_i64, _seqs, _i64, _P(_HamOpt), _P(_i64)]
_L.rkl_rkt.argtypes = [_i64, _seqs, _P(_i64), _i64, _i64, _i64, ctypes.c_int, _P(_RktRes)]
_L.rkl_rkt_ex.argtypes = [_i64, _seqs, _P(_i64), _P(_RktOpt), _P(_RktRes), _P(_RktRes)]
_L.rkl_rkt_occurrences.argtypes = [_i64, _seqs, _P(_i64), _i64, _P(_RktRes), _P(_P(_RktOcc)), _P(_i64)]
_L.rkl_hamming_pairs.argtypes = [_i64, _seqs, _i64, _P(_HamOpt), _i64, _P(_P(_HamPair)), _P(_i64)]
_L.rkl_gpu_count.restype = ctypes.c_int
_libc = ctypes.CDLL(None)
_libc.free.argtypes = [ctypes.c_void_p]
_L.rkl_lev_result_free.argtypes = [_P(_LevRes)]
_L.rkl_lcs_result_free.argtypes = [_P(_LcsRes)]
_MODES = {"global": 0, "prefix": 1, "infix": 2, "NW": 0, "SHW": 1, "HW": 2}


def version():
    return _L.rkl_version().decode()


def gpu_count():
    """CUDA devices the library can use (0 when built without CUDA); pass gpu=0 .. gpu_count()-1."""
    return _L.rkl_gpu_count()


def _dev(gpu):
    return -1 if gpu is None or gpu < 0 else gpu


def _b(s):
    return s if isinstance(s, bytes) else str(s).encode()


def _arr(seqs):
    bs = [_b(s) for s in seqs]
    return bs, (ctypes.c_char_p * max(1, len(bs)))(*bs), (_i64 * max(1, len(bs)))(*[len(s) for s in bs])


def _check(st):
    if st:
        msg = _L.rkl_error().decode()
        raise MemoryError(msg) if st == 2 else DeviceError(msg) if st == 3 else Error(msg)


def _text(p):
    return ctypes.string_at(p).decode() if p else None


def _lev(a, b, k, mode, cigar, threads, gpu):
    if len(a) != len(b):
        raise ValueError("as many sequences in a as in b")
    if mode not in _MODES:
        raise ValueError("mode: global, prefix or infix")
    ka, pa, la = _arr(a)
    kb, pb, lb = _arr(b)
    o = _LevOpt(_MODES[mode], -1 if k is None or k < 0 else k, 1 if cigar else 0, threads, _dev(gpu))
    r = (_LevRes * max(1, len(a)))()
    _check(_L.rkl_lev_batch(len(a), pa, la, pb, lb, ctypes.byref(o), r))
    out = []
    for x in r[:len(a)]:
        out.append({"distance": x.distance, "start": x.b_start, "end": x.b_end, "cigar": _text(x.cigar)})
        _L.rkl_lev_result_free(ctypes.byref(x))
    return out


def lev(a, b, k=-1, mode="global", threads=0, gpu=None):
    """The Levenshtein distance of a and b (-1 when k >= 0 and it is over k). mode: global
    (all of b), prefix (b's end free) or infix (both ends of b free), as edlib's NW, SHW, HW.
    gpu: None for the CPU, else a CUDA device index (every function takes it)."""
    return _lev([a], [b], k, mode, False, threads, gpu)[0]["distance"]


def align(a, b, k=-1, mode="global", threads=0, gpu=None):
    """dict(distance, start, end, cigar): the distance, the piece of b aligned [start, end) and
    the CIGAR (=, X, I, D; I consumes a), as `rktlcs lev --path` gives them."""
    return _lev([a], [b], k, mode, True, threads, gpu)[0]


def lev_batch(a, b, k=-1, mode="global", cigar=False, threads=0, gpu=None):
    """Pairs a[i], b[i]: a list of distances, or with cigar=True of align()'s dicts."""
    r = _lev(a, b, k, mode, cigar, threads, gpu)
    return r if cigar else [x["distance"] for x in r]


def _lcs(a, b, want, threads, gpu):
    ka, pa, la = _arr(a)
    kb, pb, lb = _arr(b)
    o = _LcsOpt(1 if want else 0, 1 if want else 0, threads, _dev(gpu))
    r = (_LcsRes * max(1, len(a)))()
    _check(_L.rkl_lcs_batch(len(a), pa, la, pb, lb, ctypes.byref(o), r))
    out = []
    for x in r[:len(a)]:
        out.append({"length": x.length, "subsequence": _text(x.subsequence), "cigar": _text(x.cigar)})
        _L.rkl_lcs_result_free(ctypes.byref(x))
    return out


def lcs(a, b, threads=0, gpu=None):
    """The length of a longest common subsequence of a and b."""
    return _lcs([a], [b], False, threads, gpu)[0]["length"]


def lcs_align(a, b, threads=0, gpu=None):
    """dict(length, subsequence, cigar): the LCS, its letters and its path (M, I, D), as
    `rktlcs lcs --seq --path` gives them."""
    return _lcs([a], [b], True, threads, gpu)[0]


def _ham_set(seqs):
    ks, p, lens = _arr(seqs)
    if ks and len(set(len(s) for s in ks)) != 1:
        raise ValueError("hamming: the sequences must all have one length (an alignment)")
    return ks, p


def hamming(seqs, all=False, keep_case=False, threads=0, gpu=None):
    """The n x n distance matrix of sequences of one length (snp-dists' rules: only A/C/G/T
    against a different A/C/G/T counts unless all=True): a numpy array where numpy is present,
    else a list of lists."""
    ks, p = _ham_set(seqs)
    n = len(ks)
    d = (_i64 * max(1, n * n))()
    o = _HamOpt(1 if all else 0, 1 if keep_case else 0, threads, _dev(gpu))
    _check(_L.rkl_hamming(n, p, len(ks[0]) if n else 0, ctypes.byref(o), d))
    try:
        import numpy
        return numpy.ctypeslib.as_array(d)[:n * n].reshape(n, n).copy()
    except ImportError:
        return [list(d[i * n:(i + 1) * n]) for i in range(n)]


def hamming_pairs(seqs, max_dist, all=False, keep_case=False, threads=0, gpu=None):
    """The pairs (i, j, distance) with i < j and distance <= max_dist, sorted, as
    `rktlcs hamming --max-dist` lists them (0-based indexes)."""
    ks, p = _ham_set(seqs)
    o = _HamOpt(1 if all else 0, 1 if keep_case else 0, threads, _dev(gpu))
    v, n = _P(_HamPair)(), _i64()
    _check(_L.rkl_hamming_pairs(len(ks), p, len(ks[0]) if ks else 0, ctypes.byref(o), max_dist, ctypes.byref(v), ctypes.byref(n)))
    out = [(v[q].i, v[q].j, v[q].distance) for q in range(n.value)]
    _libc.free(ctypes.cast(v, ctypes.c_void_p))
    return out


def _rkt(reads, k, t, tau, threads, gpu, cands):
    ks, p, lens = _arr(reads)
    o = _RktOpt(k, t, tau, threads, _dev(gpu))
    r = _RktRes()
    c = (_RktRes * max(1, len(ks)))() if cands else None
    _check(_L.rkl_rkt_ex(len(ks), p, lens, ctypes.byref(o), ctypes.byref(r), c))
    return ks, p, lens, r, c


def _piece(ks, r):
    return ks[r.read][r.pos:r.pos + r.length].decode().upper().replace("U", "T")


def rkt(reads, k, t, tau, threads=0, gpu=None, occurrences=False):
    """The Rkt-LCS of a read set: dict(read, pos, length, support, substring), or None. With
    occurrences=True also "occurrences": (read, pos, mismatches) of each supporting read, as
    `rktlcs --occurrences` gives them."""
    ks, p, lens, r, _ = _rkt(reads, k, t, tau, threads, gpu, False)
    if r.read < 0:
        return None
    out = {"read": r.read, "pos": r.pos, "length": r.length, "support": r.support, "substring": _piece(ks, r)}
    if occurrences:
        v, n = _P(_RktOcc)(), _i64()
        _check(_L.rkl_rkt_occurrences(len(ks), p, lens, k, ctypes.byref(r), ctypes.byref(v), ctypes.byref(n)))
        out["occurrences"] = [(v[q].read, v[q].pos, v[q].mismatches) for q in range(n.value)]
        _libc.free(ctypes.cast(v, ctypes.c_void_p))
    return out


def rkt_candidates(reads, k, t, tau, threads=0, gpu=None):
    """Each read's candidate, as `rktlcs --candidates` writes them: a list of dict(read, pos,
    length, support, substring), None for a read without one."""
    ks, p, lens, r, c = _rkt(reads, k, t, tau, threads, gpu, True)
    return [None if x.read < 0 else {"read": x.read, "pos": x.pos, "length": x.length, "support": x.support,
                                     "substring": _piece(ks, x)} for x in c[:len(ks)]]
