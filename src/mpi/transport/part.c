#include "mpi/transport/rmpi.h"

/* the share of ranks 0 .. p - 1 of the whole: p / parts, or their weights' part of the sum */
static double part_upto(const double *wt, int parts, int p)
{
	if (!wt) return (double)p / parts;
	double a = 0, t = 0;
	for (int r = 0; r < parts; r++) {
		t += wt[r];
		if (r < p) a += wt[r];
	}
	return t > 0 ? a / t : (double)p / parts;
}

void rmpi_partition(const int32_t *len, int64_t n, int parts, int32_t sub, const double *wt, int64_t *bounds)
{
	/* each read is compared with all others, so its cost is proportional to its bases
	 * (on the GPU: to its starts that can reach tau, len - tau + 1) */
	double tot = 0, acc = 0;
	for (int64_t i = 0; i < n; i++) tot += len[i] > sub ? len[i] - sub : 0;
	int64_t i = 0;
	bounds[0] = 0;
	for (int p = 1; p < parts; p++) {
		double goal = tot * part_upto(wt, parts, p);
		while (i < n && acc + (len[i] > sub ? len[i] - sub : 0) * 0.5 < goal) { acc += len[i] > sub ? len[i] - sub : 0; i++; }
		bounds[p] = i;
	}
	bounds[parts] = n;
}

void rmpi_partition_tri(int64_t n, int parts, const double *wt, int64_t *bounds)
{
	/* rows before i cost i*n - i(i-1)/2; pick the first row whose prefix reaches the goal */
	double tot = (double)n * (n + 1) / 2;
	int64_t i = 0;
	bounds[0] = 0;
	for (int p = 1; p < parts; p++) {
		double goal = tot * part_upto(wt, parts, p);
		while (i < n && (double)i * n - (double)i * (i - 1) / 2 < goal) i++;
		bounds[p] = i;
	}
	bounds[parts] = n;
}
