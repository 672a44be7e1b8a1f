/* lcs under MPI: the pairwise driver with longest common subsequences. */
#include <string.h>
#include "mpi/run/lcs_run.h"
#include "algo/split.h"
#ifdef RKTLCS_HAVE_CUDA
#include "gpu/lcs_gpu.h"
#endif

void lcs_run_opt_init(lcs_run_opt_t *o)
{
	memset(o, 0, sizeof *o);
	rk_common_init(&o->c);
	lcs_opt_init(&o->algo);
}

rk_status_t lcs_run_opt_check(const lcs_run_opt_t *o)
{
	if (!o->in_a || !o->in_b) { rk_set_error("lcs needs two files A B (see rktlcs lcs --help)"); return RK_EINPUT; }
	if (o->c.format == RK_FMT_PAF && !o->algo.path) {
		rk_set_error("--format paf needs --path: a PAF line is an alignment (its coordinates and cg:Z: CIGAR)");
		return RK_EINPUT;
	}
	return RK_OK;
}

static rk_status_t lcs_cpu(const void *algo, const aln_pair_t *p, int64_t n, int nth, int64_t *val, aln_path_t *paths,
                           aln_ends_t *ends)
{
	(void)ends;
	lcs_opt_t o = *(const lcs_opt_t *)algo;
	o.n_threads = nth;
	return n == 1 ? lcs_pair(&o, p->a, p->la, p->b, p->lb, val, paths) : lcs_batch(&o, p, n, val, paths);
}


#ifdef RKTLCS_HAVE_CUDA
static rk_status_t lcs_gpu(const void *algo, const aln_pair_t *p, int64_t n, const rgpu_opt_t *g, int64_t *val,
                          aln_path_t *paths, aln_ends_t *ends, rgpu_stats_t *st)
{
	(void)ends;
	return rgpu_lcs_batch(algo, p, n, g, val, paths, st);
}
#endif

rk_status_t rmpi_lcs_run(const rmpi_t *w, const lcs_run_opt_t *o)
{
	lcs_opt_t algo = o->algo;
	algo.path = o->algo.path || o->seq;  /* the subsequence comes from the path */
	rmpi_pairs_t s;
	memset(&s, 0, sizeof s);
	s.c = &o->c; s.in_a = o->in_a; s.in_b = o->in_b; s.max_dist = -1;
	s.meta = (rio_pair_meta_t){ RIO_LCS, o->in_a, o->in_b, -1, -1, o->algo.path, o->seq, o->c.format, 0 };
	s.mode.cpu = lcs_cpu;
#ifdef RKTLCS_HAVE_CUDA
	s.mode.gpu = lcs_gpu;
#endif
	s.mode.algo = &algo;
	s.mode.split_kind = SPLIT_LCS;
	s.mode.k = -1;
	s.mode.want_path = algo.path;
	return rmpi_pairs_run(w, &s);
}
