/* Fuzz target: Rkt-LCS on whatever the reader accepts (small sets), against the
 * independent brute force of tests/brute.c. The first two bytes choose k, t and tau. */
#include "fuzz_util.h"
#include "algo/rkt.h"
#include "../brute.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 3) return 0;
	rio_reads_t r;
	rk_status_t st = fz_read(data + 2, size - 2, 0, &r);
	if (st) { fz_check_error(st); return 0; }
	int m = (int)r.n;
	int64_t maxl = 0;
	for (int i = 0; i < m; i++) if (rio_len(&r, i) > maxl) maxl = rio_len(&r, i);
	if (m >= 2 && m <= 12 && maxl <= 48) {
		rkt_opt_t o;
		rkt_opt_init(&o);
		o.k = data[0] & 3; o.t = 1 + (data[0] >> 2) % (m - 1); o.tau = 1 + (data[1] & 7); o.n_threads = 1;
		rkt_set_t set;
		FZ_ASSERT(rkt_set_init(&set, &r) == RK_OK);
		rkt_cand_t *c = malloc(sizeof *c * (size_t)m);
		bf_cand_t *bf = malloc(sizeof *bf * (size_t)m);
		char **s = malloc(sizeof *s * (size_t)m);
		long *len = malloc(sizeof *len * (size_t)m);
		FZ_ASSERT(rkt_candidates(&o, &set, 0, m, c) == RK_OK);
		for (int i = 0; i < m; i++) { s[i] = (char *)rio_seq(&r, i); len[i] = (long)rio_len(&r, i); }
		bf_candidates(m, s, len, o.k, o.t, o.tau, bf);
		for (int i = 0; i < m; i++) FZ_ASSERT(c[i].pos == bf[i].pos && c[i].len == bf[i].len && c[i].support == bf[i].support);
		free(c); free(bf); free(s); free(len);
		rkt_set_free(&set);
	}
	rio_reads_free(&r);
	return 0;
}
