/* Fuzz target: hamming on whatever the reader accepts (equal lengths), every option
 * combination from the first byte, against a naive count written here. */
#include "fuzz_util.h"
#include "algo/ham.h"

static int fz_base(char c) { return c == 'A' || c == 'C' || c == 'G' || c == 'T'; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2) return 0;
	int all = data[0] & 1, keep = (data[0] >> 1) & 1;
	uint32_t cap = (data[0] >> 2) & 7;  /* 0: none */
	rio_reads_t r;
	rk_status_t st = fz_read(data + 1, size - 1, keep, &r);
	if (st) { fz_check_error(st); return 0; }
	int64_t n = r.n, L = rio_len(&r, 0);
	int equal = 1;
	for (int64_t i = 1; i < n; i++) equal &= rio_len(&r, i) == L;
	if (equal && n <= 40 && L <= 1000) {
		ham_opt_t o;
		ham_opt_init(&o);
		o.all = all; o.cap = cap; o.n_threads = 1;
		ham_set_t h;
		FZ_ASSERT(ham_set_init(&h, &r, &o) == RK_OK);
		uint32_t *M = calloc((size_t)(n * n), sizeof *M);
		ham_block(&h, &o, 0, n, 0, n, 1, M, n);
		ham_pair_t *p = 0;
		int64_t np = 0, q = 0;
		FZ_ASSERT(ham_pairs(&h, &o, 0, n, 2, &p, &np) == RK_OK);
		for (int64_t i = 0; i < n; i++)
			for (int64_t j = i; j < n; j++) {
				const char *a = rio_seq(&r, i), *b = rio_seq(&r, j);
				uint32_t d = 0;
				for (int64_t x = 0; x < L; x++)
					d += all ? a[x] != b[x] : fz_base(a[x]) && fz_base(b[x]) && a[x] != b[x];
				if (cap && d > cap) d = cap;
				FZ_ASSERT(M[i * n + j] == d);
				if (j > i && d <= 2) { FZ_ASSERT(q < np && p[q].i == i && p[q].j == j && p[q].d == d); q++; }
			}
		FZ_ASSERT(q == np);
		free(M); free(p);
		ham_set_free(&h);
	}
	rio_reads_free(&r);
	return 0;
}
