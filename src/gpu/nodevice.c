/* Built without CUDA: no device is ever usable. */
#include <stdio.h>
#include <string.h>
#include "gpu/rgpu.h"

int rgpu_device_count(void) { return 0; }

rk_status_t rgpu_device_name(int dev, char *buf, int len)
{
	(void)dev;
	snprintf(buf, (size_t)len, "none");
	rk_set_error("this rktlcs was built without CUDA");
	return RK_ERES;
}

void rgpu_opt_init(rgpu_opt_t *g) { memset(g, 0, sizeof *g); }

int32_t rgpu_rkt_max_len(int64_t tau) { (void)tau; return 0; }

rk_status_t rgpu_rkt_candidates(const rkt_opt_t *o, const rkt_set_t *s, int64_t lo, int64_t hi,
                                const rgpu_opt_t *g, rkt_cand_t *out, rgpu_stats_t *st)
{
	(void)o; (void)s; (void)lo; (void)hi; (void)g; (void)out; (void)st;
	rk_set_error("this rktlcs was built without CUDA");
	return RK_ERES;
}
