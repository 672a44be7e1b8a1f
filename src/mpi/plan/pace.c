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
	p->all = malloc(sizeof *p->all * 3 * (size_t)w->size);
	if (!p->cost || !p->sec || !p->wt || !p->all) { rmpi_pace_free(p); rk_set_error("out of memory"); return RK_ERES; }
	for (int r = 0; r < p->n; r++) p->wt[r] = 1;
	return RK_OK;
}

void rmpi_pace_free(rmpi_pace_t *p)
{
	free(p->cost); free(p->sec); free(p->wt); free(p->all);
	p->cost = p->sec = p->wt = p->all = 0;
}

void rmpi_pace_split(const rmpi_pace_t *p, const double *c, int64_t n, int64_t *bounds)
{
	double tot = 0, acc = 0, wsum = 0, wacc = 0;
	for (int64_t i = 0; i < n; i++) tot += c[i];
	for (int r = 0; r < p->n; r++) wsum += p->wt[r];
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
	double sum = 0, slow = HUGE_VAL, fast = 0;
	/* every rank adds the same numbers in the same order: the same weights everywhere */
	for (int r = 0; r < p->n; r++) {
		p->cost[r] += all[3 * r];
		p->sec[r] += all[3 * r + 1];
		sum += all[3 * r + 2];
		if (p->sec[r] < slow) slow = p->sec[r];
	}
	if (!(slow >= PACE_MIN_S)) return sum;
	for (int r = 0; r < p->n; r++) {
		p->wt[r] = p->cost[r] > 0 ? p->cost[r] / p->sec[r] : 0;
		if (p->wt[r] > fast) fast = p->wt[r];
	}
	for (int r = 0; r < p->n; r++) {
		if (!(fast > 0)) p->wt[r] = 1;
		else if (p->wt[r] < fast / PACE_SPREAD) p->wt[r] = fast / PACE_SPREAD;
	}
	return sum;
}

double rmpi_pace_round(const rmpi_t *w, rmpi_pace_t *p, double cost, double sec, double x)
{
	const double mine[3] = { cost, sec, x };
	rmpi_allgather(w, mine, sizeof mine, p->all);
	return rmpi_pace_add(p, p->all);
}
