/* Fuzz target: the lcs mode on whatever the reader accepts: each pair of consecutive records
 * (up to 400 symbols) against the naive DP of tests/naive_dp.c (value and canonical path),
 * with the options from the first byte. */
#include "fuzz_util.h"
#include "algo/lcs.h"
#include "../naive_dp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2) return 0;
	rio_reads_t r;
	rk_status_t st = fz_read(data + 1, size - 1, 0, &r);
	if (st) { fz_check_error(st); return 0; }
	lcs_opt_t o;
	lcs_opt_init(&o);
	o.path = data[0] & 1;
	o.n_threads = 1;
	o.simd = (data[0] >> 1) & 3;  /* 0 scalar, 2 AVX2, 3 AVX-512 (capped by the CPU); 1 is scalar too */
	for (int64_t i = 0; i + 1 < r.n && i < 8; i++) {
		const char *a = rio_seq(&r, i), *b = rio_seq(&r, i + 1);
		int64_t la = rio_len(&r, i), lb = rio_len(&r, i + 1), len = -2;
		if (la > 400 || lb > 400) continue;
		aln_path_t p = { 0 };
		FZ_ASSERT(lcs_pair(&o, a, la, b, lb, &len, o.path ? &p : 0) == RK_OK);
		char *ops = 0;
		FZ_ASSERT(len == naive_lcs(a, la, b, lb, &ops));
		if (o.path) {
			char *cig = naive_cigar(ops), buf[4096];
			FZ_ASSERT(aln_path_cigar(&p, buf, sizeof buf) < (int64_t)sizeof buf && strcmp(buf, cig) == 0);
			free(cig);
		}
		free(ops);
		aln_path_free(&p);
	}
	rio_reads_free(&r);
	return 0;
}
