/* Stage timers of a run and their report (rmpi.h): one info line on rank 0 and, with
 * --stats FILE, a JSON file with the stages and every rank's compute time, so that a scaling
 * study shows where the time goes. */
#include <stdlib.h>
#include <string.h>
#include "mpi/transport/rmpi.h"
#include "io/fmt.h"

void rmpi_clock_start(rmpi_clock_t *k)
{
	memset(k, 0, sizeof *k);
	k->t0 = k->mark = rk_realtime();
}

void rmpi_clock_lap(rmpi_clock_t *k, int stage)
{
	double now = rk_realtime();
	if (stage >= 0 && stage < RMPI_STAGES) k->s[stage] += now - k->mark;
	k->mark = now;
}

static const char *const rmpi_stage_name[RMPI_STAGES] = { "read", "distribute", "compute", "gather", "write" };

rk_status_t rmpi_clock_report(const rmpi_t *w, const rk_common_t *c, const rmpi_clock_t *k, const char *mode, const char *extra)
{
	/* each rank's compute time and peak RSS, side by side: [2r] and [2r + 1] */
	double *comp = malloc(sizeof(double) * 2 * (size_t)w->size), mine[2] = { k->s[RMPI_COMPUTE], rk_peak_rss_kb() / 1024.0 };
	rk_status_t st = RK_OK;
	if (!comp) { rk_err("out of memory"); return rmpi_agree(w, RK_ERES); }
	rmpi_allgather(w, mine, sizeof mine, comp);
	if (w->rank == 0) {
		double lo = comp[0], hi = comp[0], wall = rk_realtime() - k->t0;
		for (int r = 1; r < w->size; r++) { if (comp[2 * r] < lo) lo = comp[2 * r]; if (comp[2 * r] > hi) hi = comp[2 * r]; }
		rk_info("%s stages: read %.3f s, distribute %.3f s, compute %.3f s (ranks %.3f-%.3f s), gather %.3f s, write %.3f s, wall %.3f s",
		        mode, k->s[0], k->s[1], k->s[2], lo, hi, k->s[3], k->s[4], wall);
		if (c->stats) {
			rio_buf_t b = { 0 };
			rio_out_t out;
			rio_buf_printf(&b, "{\"program\":\"rktlcs\",\"version\":\"%s\",\"mode\":\"%s\",\"ranks\":%d,\"nodes\":%d,\"wall\":%.6f,\"stages\":{",
			               RKTLCS_VERSION, mode, w->size, w->nodes, wall);
			for (int q = 0; q < RMPI_STAGES; q++) rio_buf_printf(&b, "%s\"%s\":%.6f", q ? "," : "", rmpi_stage_name[q], k->s[q]);
			rio_buf_str(&b, "},\"rank_compute\":[");
			for (int r = 0; r < w->size; r++) rio_buf_printf(&b, "%s%.6f", r ? "," : "", comp[2 * r]);
			/* the high-water mark of each process so far (getrusage), for memory per rank */
			rio_buf_str(&b, "],\"rank_peak_rss_mb\":[");
			for (int r = 0; r < w->size; r++) rio_buf_printf(&b, "%s%.1f", r ? "," : "", comp[2 * r + 1]);
			rio_buf_chr(&b, ']');
			if (extra && *extra) { rio_buf_chr(&b, ','); rio_buf_str(&b, extra); }
			rio_buf_str(&b, "}\n");
			if ((st = rio_out_open(&out, c->stats)) == RK_OK) {
				if ((st = rio_buf_write(&b, out.fp, rio_out_name(&out))) == RK_OK) st = rio_out_commit(&out);
				else rio_out_abort(&out);
			}
			if (st) rk_err("%s", rk_error());
			rio_buf_free(&b);
		}
	}
	free(comp);
	return rmpi_agree(w, st);
}
