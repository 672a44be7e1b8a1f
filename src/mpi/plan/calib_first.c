/* First-use calibration (plan.h, docs/calibrate.md): RKTLCS_CALIBRATE=auto lets a long job
 * whose two estimates on the built-in table are close measure this machine before choosing,
 * where a wrong pick would cost more than the ~10 s of probes; short jobs never pay them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "mpi/plan/plan.h"

int rmpi_calib_first_due(double tg, double tc, int calibrated, double min_s)
{
	const double lo = tg < tc ? tg : tc, hi = tg < tc ? tc : tg;
	return !calibrated && lo > 0 && lo >= min_s && hi <= 2 * lo;
}

/* a launcher's rank (Open MPI, PMIx, PMI): its children would join its job */
static int calib_launched(const rmpi_t *w)
{
	return w->size > 1 || getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMIX_RANK") || getenv("PMI_RANK") || getenv("PMI_SIZE");
}

int rmpi_calib_first(const rmpi_t *w, const rk_common_t *c, double tg, double tc)
{
	const char *e = getenv("RKTLCS_CALIBRATE"), *m = getenv("RKTLCS_CALIBRATE_MIN_S");
	if (!e || strcmp(e, "auto")) return 0;
	const double min_s = m && *m ? atof(m) : RMPI_CALIB_FIRST_S;   /* (tests shorten it) */
	if (!rmpi_calib_first_due(tg, tc, rmpi_rates_calibrated(), min_s)) return 0;
	if (calib_launched(w)) {
		if (w->rank == 0)
			rk_info("auto: RKTLCS_CALIBRATE=auto does not calibrate inside an MPI job; run `rktlcs calibrate` once on this node type");
		return 0;
	}
	char self[4096];
	const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n <= 0) { rk_warn("auto: first-use calibration: this program's path is unknown; the built-in table"); return 0; }
	self[n] = 0;
	rk_info("auto: the GPU (%.3g s) and the CPU (%.3g s) are close on the built-in table: calibrating this machine first "
	        "(about 10 s, once)", tg, tc);
	rmpi_calib_opt_t o;
	rmpi_calib_opt_init(&o);
	o.c = *c;
	o.self = self;
	o.rates = c->rates;
	o.threads = c->threads_given ? c->threads : 0;   /* as `rktlcs calibrate` probes them */
	double drv, ctx;
	rgpu_warm_join();   /* its start, timed cold, is the one the probes cannot see */
	o.start = rgpu_warm_times(&drv, &ctx) ? drv + ctx : 0;
	if (rmpi_calibrate(&o) != RK_OK) {
		rk_warn("auto: first-use calibration failed (%s): the built-in table", rk_error());
		rk_clear_error();
		return 0;
	}
	rmpi_rates_reload(c->rates, 1);
	return rmpi_rates_calibrated();
}
