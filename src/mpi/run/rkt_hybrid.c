/* Rkt-LCS reads shared by claims between a rank's GPU and its other CPU threads (rkt_run.h).
 * Where the GPU walks each pair from both reads, a read's candidate needs only its own walk
 * against all reads, so any worker can take any read: the GPU and the threads pull rows from
 * one counter, each at its own pace, and no split is sized from rates that may be wrong (the
 * built-in ones are from -k 3, docs/SCALING.md). Every row is computed by exactly one worker and
 * CPU = GPU, so the output does not depend on who took what. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "mpi/run/rkt_run.h"
#include "gpu/rkt_gpu.h"

#define HY_CPU_CHUNK_S 0.2   /* a CPU thread claims this long a piece at its measured pace */
#define HY_EARLY_S 0.05      /* until the GPU's pace is known, pieces this short: a job the GPU
                              * ends soon must not wait for a thread's piece */
#define HY_END_SAFETY 0.8    /* a thread's piece ends before the GPU would end what is left alone */
#define HY_GPU_FIRST 4       /* the GPU's first claim: this part of the rows, its pace unknown */
#define HY_STANDIN_LEAST 16  /* the CPU standing in for the GPU (tests): its claims */
#define HY_STANDIN_MOST 4096

typedef struct {
	pthread_mutex_t mu;
	int64_t lo, hi, next, back; /* rows [lo, hi); [next, back) not claimed: the GPU takes from the front,
	                             * the threads from the back */
	double gpu_rate;           /* rows a second the GPU has reached; 0: not known yet */
	double gpu_t, gpu_busy;    /* its last claim's time, its time in pieces */
	int64_t gpu_last, gpu_rows, cpu_rows;
	double cpu_busy;           /* the threads' seconds in pieces, summed */
	int n_cpu;                 /* threads */
	int gpu_done;              /* the GPU claims no more: the threads end the rest */
	int failed;                /* a worker failed: nobody claims */
	rk_status_t cpu_st;
	rk_progress_t prog;
} hy_t;

typedef struct {
	rkt_rows_t base;
	hy_t *h;
} hy_rows_t;

typedef struct {
	hy_t *h;
	const rkt_opt_t *o;        /* one thread */
	const rkt_set_t *s;
	rkt_cand_t *out;           /* read h->lo's first */
} hy_worker_t;

/* The GPU's claims: what its last piece took gives its pace; once the threads' pace is known
 * too, it claims its part of what is left at both paces. Few claims: each ends its launches'
 * last wave part idle. */
static int64_t hy_gpu_claim(rkt_rows_t *r, int64_t least, int64_t most, int64_t *first)
{
	hy_t *h = ((hy_rows_t *)r)->h;
	pthread_mutex_lock(&h->mu);
	const double now = rk_realtime();
	if (h->gpu_last > 0) {
		h->gpu_busy += now - h->gpu_t;
		h->gpu_rows += h->gpu_last;
		h->gpu_rate = h->gpu_busy > 0 ? (double)h->gpu_rows / h->gpu_busy : 0;
		rk_progress(&h->prog, (double)(h->gpu_rows + h->cpu_rows));
	}
	const int64_t left = h->back - h->next;
	const double cpu_rate = h->cpu_busy > 0 ? (double)h->n_cpu * (double)h->cpu_rows / h->cpu_busy : 0;
	int64_t n = h->gpu_rate > 0 && cpu_rate > 0 ? (int64_t)((double)left * h->gpu_rate / (h->gpu_rate + cpu_rate)) + 1
	                                            : left / HY_GPU_FIRST;
	if (n < least) n = least;
	if (n > most) n = most;
	if (n > left) n = left;
	if (h->failed || n < 0) n = 0;
	*first = h->next;
	h->next += n;
	h->gpu_last = n;
	h->gpu_t = now;
	pthread_mutex_unlock(&h->mu);
	return n;
}

/* A thread's next piece (0: it stops), per: its seconds a row (0: not measured). Once the
 * GPU's pace is known, a piece must end before the GPU would end its claimed piece and the
 * rows not claimed yet alone, or the job waits for the thread. */
static int64_t hy_cpu_claim(hy_t *h, double per, int64_t *first)
{
	pthread_mutex_lock(&h->mu);
	const int64_t left = h->back - h->next;
	double n = per > 0 && HY_CPU_CHUNK_S / per > 1 ? HY_CPU_CHUNK_S / per : 1;
	if (per > 0 && !h->gpu_done) {
		if (h->gpu_rate > 0) {  /* the only way a thread stops before the rows run out */
			const double end = h->gpu_t + (double)(h->gpu_last + left) / h->gpu_rate, cap = HY_END_SAFETY * (end - rk_realtime()) / per;
			if (n > cap) n = cap;
		} else if (n > HY_EARLY_S / per)
			n = HY_EARLY_S / per > 1 ? HY_EARLY_S / per : 1;
	}
	int64_t c = n < (double)left ? (int64_t)n : left;
	if (h->failed || c < 0) c = 0;
	h->back -= c;
	*first = h->back;
	pthread_mutex_unlock(&h->mu);
	return c > 0 ? c : 0;
}

static void *hy_worker(void *arg)
{
	hy_worker_t *w = arg;
	hy_t *h = w->h;
	double per = 0;
	int64_t a, n;
	while ((n = hy_cpu_claim(h, per, &a)) > 0) {
		const double t0 = rk_realtime();
		const rk_status_t st = rkt_candidates(w->o, w->s, a, a + n, w->out + (a - h->lo));
		per = (rk_realtime() - t0) / (double)n;
		pthread_mutex_lock(&h->mu);
		h->cpu_rows += n;
		h->cpu_busy += per * (double)n;
		if (st) { h->failed = 1; if (!h->cpu_st) h->cpu_st = st; }
		rk_progress(&h->prog, (double)(h->gpu_rows + h->cpu_rows));
		pthread_mutex_unlock(&h->mu);
		if (st) break;
	}
	return 0;
}

/* the CPU standing in for the GPU (tests): the GPU's claims, computed by rkt_candidates */
static rk_status_t hy_standin(const rkt_opt_t *o, const rkt_set_t *s, rkt_rows_t *rows, int64_t lo, rkt_cand_t *out)
{
	int64_t a, n;
	rk_status_t st = RK_OK;
	while (!st && (n = rows->claim(rows, HY_STANDIN_LEAST, HY_STANDIN_MOST, &a)) > 0) st = rkt_candidates(o, s, a, a + n, out + (a - lo));
	return st;
}

/* the GPU's side (or its stand-in) on the calling thread; every thread made is joined */
static rk_status_t hy_gpu_side(hy_t *h, const rkt_opt_t *o, const rkt_set_t *s, rmpi_be_t *be, int standin, rkt_cand_t *out)
{
	hy_rows_t rows = { { hy_gpu_claim }, h };
	rk_status_t st = RK_OK;
	if (standin) {
		rkt_opt_t one = *o;
		one.n_threads = 1;
		st = hy_standin(&one, s, &rows.base, h->lo, out);
	}
#ifdef RKTLCS_HAVE_CUDA
	else
		st = rgpu_rkt_candidates_rows(o, s, h->lo, h->hi, &be->g, &rows.base, out, &be->stats);
#else
	(void)be;
#endif
	pthread_mutex_lock(&h->mu);
	if (h->gpu_last > 0 && !st) { h->gpu_rows += h->gpu_last; h->gpu_busy += rk_realtime() - h->gpu_t; }
	h->gpu_last = 0;
	h->gpu_done = 1;
	if (st) h->failed = 1;
	pthread_mutex_unlock(&h->mu);
	return st;
}

rk_status_t rmpi_rkt_hybrid(const rkt_opt_t *o, const rkt_set_t *s, int64_t lo, int64_t hi, rmpi_be_t *be, int standin,
                            rkt_cand_t *out, int *ran)
{
	const int nw = o->n_threads - 1;
	*ran = 0;
	if (nw < 1 || hi - lo < 2) return RK_OK;
	hy_t h;
	memset(&h, 0, sizeof h);
	pthread_mutex_init(&h.mu, 0);
	h.lo = lo; h.hi = hi; h.next = lo; h.back = hi;
	rkt_opt_t one = *o;
	one.n_threads = 1;
	hy_worker_t wk = { &h, &one, s, out };
	pthread_t *tid = malloc(sizeof(pthread_t) * (size_t)nw);
	int made = 0;
	/* before the threads, which report to it */
	rk_progress_start(&h.prog, "rkt: reads (the GPU and the CPU threads)", (double)(hi - lo));
	for (int i = 0; tid && i < nw; i++)
		if (pthread_create(&tid[made], 0, hy_worker, &wk) == 0) {
			made++;
			pthread_mutex_lock(&h.mu);
			h.n_cpu = made;
			pthread_mutex_unlock(&h.mu);
		}
	if (!made) {  /* no thread to share with: the caller runs the GPU alone */
		free(tid);
		pthread_mutex_destroy(&h.mu);
		return RK_OK;
	}
	*ran = 1;
	const double t0 = rk_realtime();
	rk_status_t st = hy_gpu_side(&h, o, s, be, standin, out);
	for (int i = 0; i < made; i++) pthread_join(tid[i], 0);
	rk_progress_end(&h.prog);
	free(tid);
	pthread_mutex_destroy(&h.mu);
	if (!st && h.cpu_st) st = h.cpu_st;
	if (!st && h.next < h.back) {  /* cannot happen: once the GPU is done the threads claim to the end */
		rk_set_error("rkt: %lld reads were left unclaimed", (long long)(h.back - h.next));
		st = RK_ERES;
	}
	if (!st)
		rk_debug("rkt: reads %lld-%lld shared by claims: the %s %lld (%.1f%%, %.4g s a read), %d CPU thread%s %lld (%.4g s a read "
		         "each), in %.3f s", (long long)lo + 1, (long long)hi, standin ? "GPU's stand-in" : "GPU", (long long)h.gpu_rows,
		         100.0 * (double)h.gpu_rows / (double)(hi - lo), h.gpu_rows ? h.gpu_busy / (double)h.gpu_rows : 0, made, made > 1 ? "s" : "",
		         (long long)h.cpu_rows, h.cpu_rows ? h.cpu_busy / (double)h.cpu_rows : 0, rk_realtime() - t0);
	return st;
}
