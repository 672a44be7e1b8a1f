/* lev under MPI: the pairwise driver with Levenshtein distances. */
#include <string.h>
#include "mpi/run/lev_run.h"
#include "algo/split.h"
#include "algo/lev_wave.h"
#ifdef RKTLCS_HAVE_CUDA
#include "gpu/lev_gpu.h"
#endif

void lev_run_opt_init(lev_run_opt_t *o)
{
	memset(o, 0, sizeof *o);
	rk_common_init(&o->c);
	lev_opt_init(&o->algo);
	o->max_dist = -1;
}

rk_status_t lev_run_opt_check(const lev_run_opt_t *o)
{
	if (!o->in_a) { rk_set_error("no input file given (see rktlcs lev --help)"); return RK_EINPUT; }
	if (o->all && o->in_b) { rk_set_error("--all compares the records of one file: give A alone"); return RK_EINPUT; }
	if (!o->all && !o->in_b) { rk_set_error("lev needs two files A B, or --all A"); return RK_EINPUT; }
	if (o->max_dist >= 0 && !o->all) { rk_set_error("--max-dist goes with --all (it keeps the pairs within D)"); return RK_EINPUT; }
	if (o->max_dist >= 0 && o->algo.mode != LEV_GLOBAL) {
		/* the pigeonhole filter (near.c) holds for whole-to-whole alignments only */
		rk_set_error("--max-dist goes with --mode global only (its filter assumes both records aligned whole)");
		return RK_EINPUT;
	}
	if (o->c.format == RK_FMT_PAF && !o->algo.path) {
		rk_set_error("--format paf needs --path: a PAF line is an alignment (its coordinates and cg:Z: CIGAR)");
		return RK_EINPUT;
	}
	if (o->all && o->max_dist >= 0 && o->algo.k >= 0 && o->algo.k < o->max_dist) {
		/* the band would drop the pairs at distances k+1..D without a word */
		rk_set_error("-k %lld is below --max-dist %lld: the pairs at distance %lld to %lld would be lost; give --max-dist alone",
		             (long long)o->algo.k, (long long)o->max_dist, (long long)o->algo.k + 1, (long long)o->max_dist);
		return RK_EINPUT;
	}
	return RK_OK;
}

static rk_status_t lev_cpu(const void *algo, const aln_pair_t *p, int64_t n, int nth, int64_t *val, aln_path_t *paths,
                           aln_ends_t *ends)
{
	lev_opt_t o = *(const lev_opt_t *)algo;
	o.n_threads = nth;
	if (o.mode != LEV_GLOBAL)
		return n == 1 ? lev_pair_mode(&o, p->a, p->la, p->b, p->lb, val, paths, ends) : lev_batch_mode(&o, p, n, val, paths, ends);
	return n == 1 ? lev_pair(&o, p->a, p->la, p->b, p->lb, val, paths) : lev_batch(&o, p, n, val, paths);
}

static rk_status_t lev_cpu_reads(const void *algo, const aln_pair_t *p, const struct aln_rsrc_s *r, int64_t n, int nth, int64_t *val,
                                 aln_path_t *paths)
{
	lev_opt_t o = *(const lev_opt_t *)algo;
	o.n_threads = nth;
	return lev_batch_reads(&o, p, r, n, val, paths);
}

#ifdef RKTLCS_HAVE_CUDA
static rk_status_t lev_gpu(const void *algo, const aln_pair_t *p, int64_t n, const rgpu_opt_t *g, int64_t *val,
                          aln_path_t *paths, aln_ends_t *ends, rgpu_stats_t *st)
{
	const lev_opt_t *o = algo;
	if (o->mode != LEV_GLOBAL) return rgpu_lev_mode_batch(o, p, n, g, val, paths, ends, st);
	return rgpu_lev_batch(algo, p, n, g, val, paths, st);
}
#endif

rk_status_t rmpi_lev_run(const rmpi_t *w, const lev_run_opt_t *o)
{
	lev_opt_t algo = o->algo;
	/* --max-dist D needs no distance above D: a band of D is exact for the rows kept */
	if (o->all && o->max_dist >= 0 && (algo.k < 0 || algo.k > o->max_dist)) algo.k = o->max_dist;
	rmpi_pairs_t s;
	memset(&s, 0, sizeof s);
	s.c = &o->c; s.in_a = o->in_a; s.in_b = o->in_b; s.all = o->all; s.max_dist = o->max_dist;
	s.meta = (rio_pair_meta_t){ RIO_LEV, o->in_a, o->in_b, o->algo.k, o->max_dist, o->algo.path, 0, o->c.format, o->algo.mode };
	s.mode.cpu = lev_cpu;
	if (o->algo.mode == LEV_GLOBAL) s.mode.cpu_reads = lev_cpu_reads;
#ifdef RKTLCS_HAVE_CUDA
	s.mode.gpu = lev_gpu;
#endif
	s.mode.algo = &algo;
	s.mode.split_kind = SPLIT_LEV;
	s.mode.k = algo.k;
	s.mode.want_path = o->algo.path;
	s.mode.want_ends = o->algo.mode != LEV_GLOBAL;
	const rk_status_t st = rmpi_pairs_run(w, &s);
	/* the batches' cap, where they measured this machine's rates for it (lev_tune.h) */
	int t;
	const lev_cap_t *m = lev_cap_measured(o->algo.path, &t);
	if (m)
		rk_debug("lev: rank %d's wavefronts break even at distance %lld on 150 bp pairs (built-in cap %lld), from this machine's rates on %d threads",
			         w->rank, (long long)lev_wave_cap(150, 150, o->algo.path, m, 1), (long long)lev_wave_cap(150, 150, o->algo.path, 0, 0), t);
	return st;
}
