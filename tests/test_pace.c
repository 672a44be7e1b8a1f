/* The ranks' paces (src/mpi/plan/pace.c): no weight before every rank has been timed, then each
 * rank's cost a second over all rounds, a floor at 1/16 of the fastest, and splits whose
 * shares follow the weights; seeded weights (GPU and CPU ranks side by side: a rank of weight 0
 * never gets work nor holds the others' paces back, a floor scaled by the seed), and the
 * weighted partitions of reads and of a triangle's rows (mpi/transport/part.c). Usage: test_pace */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include "testutil.h"
#include "mpi/plan/plan.h"

/* one round: rank r did cost[r] in sec[r] seconds */
static double round3(rmpi_pace_t *p, const double *cost, const double *sec)
{
	double all[9];
	for (int r = 0; r < 3; r++) { all[3 * r] = cost[r]; all[3 * r + 1] = sec[r]; all[3 * r + 2] = r + 1; }
	return rmpi_pace_add(p, all);
}

/* the cost each rank gets of n items of cost c under p */
static void shares(const rmpi_pace_t *p, const double *c, int64_t n, double *got)
{
	int64_t b[4];
	rmpi_pace_split(p, c, n, b);
	CHECK(b[0] == 0 && b[3] == n && b[1] <= b[2], "bounds %lld %lld %lld %lld", (long long)b[0], (long long)b[1], (long long)b[2], (long long)b[3]);
	for (int r = 0; r < 3; r++) { got[r] = 0; for (int64_t i = b[r]; i < b[r + 1]; i++) got[r] += c[i]; }
}

/* seeds 30, 1, 0 (a GPU rank, a CPU rank, a rank beyond the GPUs under --backend gpu) */
static void seeded(const double *c, int64_t n)
{
	const rmpi_t w = { .size = 3 };
	rmpi_pace_t p;
	double got[3];
	CHECK(rmpi_pace_init(&w, &p) == RK_OK, "init");
	rmpi_pace_seed(&p, (double[]){ 30, 1, 0 });
	shares(&p, c, n, got);
	CHECK(got[2] == 0 && fabs(got[0] / got[1] - 30) < 0.5, "seeded shares: %g %g %g", got[0], got[1], got[2]);
	/* rank 2 is never timed: the paces count once ranks 0 and 1 have been */
	round3(&p, (double[]){ 300, 10, 0 }, (double[]){ 0.03, 0.02, 0 });
	CHECK(p.wt[2] == 0 && fabs(p.wt[0] - 10000) < 1e-6 && fabs(p.wt[1] - 500) < 1e-6, "seeded paces: %g %g %g", p.wt[0], p.wt[1], p.wt[2]);
	/* rank 1 crawls: its floor is the fastest's / 16 x its seed / the largest */
	round3(&p, (double[]){ 1e6, 0, 0 }, (double[]){ 1, 100, 0 });
	const double floor = p.wt[0] / 16 / 30;
	CHECK(p.wt[2] == 0 && fabs(p.wt[1] - floor) < 1e-9 * p.wt[0], "seeded floor: %g %g %g (floor %g)", p.wt[0], p.wt[1], p.wt[2], floor);
	shares(&p, c, n, got);
	CHECK(got[2] == 0 && got[1] > 0, "shares: %g %g %g", got[0], got[1], got[2]);
	rmpi_pace_free(&p);
}

/* reads and a triangle's rows split by weights: 3 : 1 : 0 */
static void partitions(void)
{
	int32_t len[400];
	int64_t b[4];
	for (int i = 0; i < 400; i++) len[i] = 50 + i % 7;
	const double wt[3] = { 3, 1, 0 };
	rmpi_partition(len, 400, 3, 0, wt, b);
	CHECK(b[0] == 0 && b[3] == 400 && b[2] == 400 && labs(b[1] - 300) <= 2, "reads by weight: %lld %lld %lld %lld", (long long)b[0],
	      (long long)b[1], (long long)b[2], (long long)b[3]);
	rmpi_partition(len, 400, 3, 0, 0, b);
	CHECK(labs(b[1] - 133) <= 2 && labs(b[2] - 267) <= 2, "reads, equal: %lld %lld", (long long)b[1], (long long)b[2]);
	rmpi_partition_tri(1000, 3, wt, b);
	/* rows 0 .. i cost i n - i (i - 1) / 2 of n (n + 1) / 2: three quarters at i = 500 */
	CHECK(b[2] == 1000 && b[3] == 1000 && labs(b[1] - 500) <= 1, "rows by weight: %lld %lld", (long long)b[1], (long long)b[2]);
	rmpi_partition_tri(1000, 3, 0, b);
	CHECK(labs(b[1] - 184) <= 2 && labs(b[2] - 423) <= 2, "rows, equal: %lld %lld", (long long)b[1], (long long)b[2]);
}

int main(void)
{
	const rmpi_t w = { .size = 3 };
	rmpi_pace_t p;
	CHECK(rmpi_pace_init(&w, &p) == RK_OK, "init");
	const int64_t n = 30000;
	double *c = malloc(sizeof *c * n), got[3];
	for (int64_t i = 0; i < n; i++) c[i] = 1 + (double)(n - i) / n;  /* early items dearer, as --all's rows */
	shares(&p, c, n, got);
	CHECK(fabs(got[0] - got[2]) / got[0] < 0.01, "untimed: equal shares, got %g %g %g", got[0], got[1], got[2]);
	/* rank 1 half as fast, but rank 2 not yet timed 20 ms: the weights stay equal */
	CHECK(round3(&p, (double[]){ 10, 10, 10 }, (double[]){ 0.01, 0.02, 0.001 }) == 6, "the sum of x");
	CHECK(p.wt[0] == 1 && p.wt[1] == 1 && p.wt[2] == 1, "weights before every rank was timed: %g %g %g", p.wt[0], p.wt[1], p.wt[2]);
	round3(&p, (double[]){ 30, 30, 30 }, (double[]){ 0.03, 0.06, 0.029 });
	/* totals: 40 / 0.04, 40 / 0.08, 40 / 0.03 */
	CHECK(fabs(p.wt[0] - 1000) < 1e-6 && fabs(p.wt[1] - 500) < 1e-6 && fabs(p.wt[2] - 40 / 0.03) < 1e-6, "weights %g %g %g", p.wt[0], p.wt[1], p.wt[2]);
	shares(&p, c, n, got);
	const double tot = got[0] + got[1] + got[2], ws = p.wt[0] + p.wt[1] + p.wt[2];
	for (int r = 0; r < 3; r++)
		CHECK(fabs(got[r] / tot - p.wt[r] / ws) < 0.001, "rank %d: share %g of the cost, weight %g", r, got[r] / tot, p.wt[r] / ws);
	/* a rank that did nothing, or crawled: 1/16 of the fastest, never 0 */
	round3(&p, (double[]){ 0, 1e6, 0 }, (double[]){ 5, 1, 100 });
	CHECK(p.wt[0] > 0 && fabs(p.wt[0] * 16 - p.wt[1]) < 1e-6 * p.wt[1] && fabs(p.wt[2] * 16 - p.wt[1]) < 1e-6 * p.wt[1],
	      "floor: %g %g %g", p.wt[0], p.wt[1], p.wt[2]);
	shares(&p, c, n, got);
	CHECK(got[0] > 0 && got[2] > 0 && got[1] > 7 * got[0], "shares under the floor: %g %g %g", got[0], got[1], got[2]);
	rmpi_pace_free(&p);
	seeded(c, n);
	partitions();
	free(c);
	return tu_done("test_pace");
}
