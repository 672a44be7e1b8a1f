#include "mpi/transport/rmpi.h"

void rmpi_partition(const int32_t *len, int64_t n, int parts, int32_t sub, int64_t *bounds)
{
	/* each read is compared with all others, so its cost is proportional to its bases
	 * (on the GPU: to its starts that can reach tau, len - tau + 1) */
	double tot = 0, acc = 0;
	for (int64_t i = 0; i < n; i++) tot += len[i] > sub ? len[i] - sub : 0;
	int64_t i = 0;
	bounds[0] = 0;
	for (int p = 1; p < parts; p++) {
		double goal = tot * p / parts;
		while (i < n && acc + (len[i] > sub ? len[i] - sub : 0) * 0.5 < goal) { acc += len[i] > sub ? len[i] - sub : 0; i++; }
		bounds[p] = i;
	}
	bounds[parts] = n;
}

void rmpi_partition_tri(int64_t n, int parts, int64_t *bounds)
{
	/* rows before i cost i*n - i(i-1)/2; pick the first row whose prefix reaches p/parts */
	double tot = (double)n * (n + 1) / 2;
	int64_t i = 0;
	bounds[0] = 0;
	for (int p = 1; p < parts; p++) {
		double goal = tot * p / parts;
		while (i < n && (double)i * n - (double)i * (i - 1) / 2 < goal) i++;
		bounds[p] = i;
	}
	bounds[parts] = n;
}
