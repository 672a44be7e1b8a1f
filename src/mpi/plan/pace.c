/* The ranks' measured paces (plan.h, rmpi_pace_t): a split of rounds by what each rank did. */
#include <stdlib.h>
#include <math.h>
#include "mpi/plan/plan.h"

#define PACE_MIN_S 0.02    /* every rank timed this long before its pace is used */
#define PACE_SPREAD 16.0   /* paces kept within this factor of the fastest */

rk_status_t rmpi_pace_init(const rmpi_t *w, rmpi_pace_t *p)
{
	p->n = w->size;
	p->cost = calloc((size_t)w->size, sizeof *p->cost);
	p->sec = calloc((size_t)w->size, sizeof *p->sec);
	p->wt = malloc(sizeof *p->wt * (size_t)w->size);
	p->seed = malloc(sizeof *p->seed * (size_t)w->size);
	p->all = malloc(sizeof *p->all * 3 * (size_t)w->size);
	if (!p->cost || !p->sec || !p->wt || !p->seed || !p->all) { rmpi_pace_free(p); rk_set_error("out of memory"); return RK_ERES; }
	for (int r = 0; r < p->n; r++) p->wt[r] = p->seed[r] = 1;
	return RK_OK;
}

void rmpi_pace_seed(rmpi_pace_t *p, const double *wt)
{
	for (int r = 0; r < p->n; r++) p->wt[r] = p->seed[r] = wt[r];
}

void rmpi_pace_free(rmpi_pace_t *p)
{
	free(p->cost); free(p->sec); free(p->wt); free(p->seed); free(p->all);
	p->cost = p->sec = p->wt = p->seed = p->all = 0;
}

void rmpi_pace_split(const rmpi_pace_t *p, const double *c, int64_t n, int64_t *bounds)
{
	double tot = 0, acc = 0, wsum = 0, wacc = 0;
	for (int64_t i = 0; i < n; i++) tot += c[i];
	for (int r = 0; r < p->n; r++) wsum += p->wt[r];
	if (!(wsum > 0)) wsum = 1;   /* (no rank has weight: all to the last) */
	int64_t i = 0;
	bounds[0] = 0;
	for (int r = 1; r < p->n; r++) {
		wacc += p->wt[r - 1];
		const double goal = tot * wacc / wsum;
		while (i < n && acc + c[i] * 0.5 < goal) acc += c[i++];
		bounds[r] = i;
	}
	bounds[p->n] = n;
}

double rmpi_pace_add(rmpi_pace_t *p, const double *all)
{
	double sum = 0, slow = HUGE_VAL, fast = 0, top = 0;
	/* every rank adds the same numbers in the same order: the same weights everywhere */
	for (int r = 0; r < p->n; r++) {
		p->cost[r] += all[3 * r];
		p->sec[r] += all[3 * r + 1];
		sum += all[3 * r + 2];
		if (p->seed[r] > 0 && p->sec[r] < slow) slow = p->sec[r];   /* a rank seeded 0 is never timed */
		if (p->seed[r] > top) top = p->seed[r];
	}
	if (!(slow >= PACE_MIN_S)) return sum;
	for (int r = 0; r < p->n; r++) {
		p->wt[r] = p->seed[r] > 0 && p->cost[r] > 0 ? p->cost[r] / p->sec[r] : 0;
		if (p->wt[r] > fast) fast = p->wt[r];
	}
	/* a rank's floor is the fastest's over PACE_SPREAD, scaled by its seed against the largest:
	 * a CPU rank beside a GPU one may be 50x slower by design, not by a passing load */
	for (int r = 0; r < p->n; r++) {
		const double floor = fast / PACE_SPREAD * (top > 0 ? p->seed[r] / top : 1);
		if (!(p->seed[r] > 0)) p->wt[r] = 0;
		else if (!(fast > 0)) p->wt[r] = p->seed[r];
		else if (p->wt[r] < floor) p->wt[r] = floor;
	}
	return sum;
}

double rmpi_pace_round(const rmpi_t *w, rmpi_pace_t *p, double cost, double sec, double x)
{
	const double mine[3] = { cost, sec, x };
	rmpi_allgather(w, mine, sizeof mine, p->all);
	return rmpi_pace_add(p, p->all);
}
