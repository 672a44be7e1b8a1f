/* The ranks' paces (src/mpi/plan/pace.c): no weight before every rank has been timed, then each
 * rank's cost a second over all rounds, a floor at 1/16 of the fastest, and splits whose
 * shares follow the weights. Usage: test_pace */
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
	free(c);
	return tu_done("test_pace");
}
