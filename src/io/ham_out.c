/* hamming tables: rows formatted in parallel (io/fmt.c), written in order. */
#include "io/ham_out.h"

typedef struct {
	const rio_ham_meta_t *m;
	const rio_reads_t *r;
	const uint32_t *M;
	char sep;
} ham_ctx_t;

static void fmt_matrix_row(rio_buf_t *b, int64_t i, const void *cp)
{
	const ham_ctx_t *c = cp;
	int64_t n = c->r->n, end = c->m->lay.lower ? i + 1 : n;
	const uint32_t *row = c->M + i * n;
	if (c->m->format == RK_FMT_JSON) {
		rio_buf_str(b, i ? ",\n[" : "\n[");
		for (int64_t j = 0; j < end; j++) { if (j) rio_buf_chr(b, ','); rio_buf_u64(b, row[j]); }
		rio_buf_chr(b, ']');
		return;
	}
	rio_buf_str(b, rio_name(c->r, i));
	for (int64_t j = 0; j < end; j++) { rio_buf_chr(b, c->sep); rio_buf_u64(b, row[j]); }
	rio_buf_chr(b, '\n');
}

/* one pair as "name1 name2 dist" (TSV/CSV) or ["name1","name2",dist] (JSON) */
static void fmt_pair(rio_buf_t *b, const ham_ctx_t *c, int64_t i, int64_t j, uint32_t d, int64_t before)
{
	if (c->m->format == RK_FMT_JSON) {
		rio_buf_str(b, before ? ",\n[" : "\n[");
		rio_buf_json(b, rio_name(c->r, i)); rio_buf_chr(b, ',');
		rio_buf_json(b, rio_name(c->r, j)); rio_buf_chr(b, ',');
		rio_buf_u64(b, d); rio_buf_chr(b, ']');
		return;
	}
	rio_buf_str(b, rio_name(c->r, i)); rio_buf_chr(b, c->sep);
	rio_buf_str(b, rio_name(c->r, j)); rio_buf_chr(b, c->sep);
	rio_buf_u64(b, d); rio_buf_chr(b, '\n');
}

static void fmt_molten_row(rio_buf_t *b, int64_t i, const void *cp)
{
	const ham_ctx_t *c = cp;
	int64_t n = c->r->n;
	/* -L: snp-dists 1.2's unique pairs, the diagonal included */
	for (int64_t j = c->m->lay.lower ? i : 0; j < n; j++) fmt_pair(b, c, i, j, c->M[i * n + j], i || j);
}

static void ham_json_head(rio_buf_t *b, const rio_ham_meta_t *m, const rio_reads_t *r, const char *layout)
{
	rio_buf_str(b, "{\"program\":\"rktlcs\",\"version\":\"" RKTLCS_VERSION "\",\"mode\":\"hamming\",\"input\":");
	rio_buf_json(b, m->input);
	rio_buf_str(b, ",\"all\":"); rio_buf_str(b, m->all ? "true" : "false");
	rio_buf_str(b, ",\"keep_case\":"); rio_buf_str(b, m->keep_case ? "true" : "false");
	rio_buf_str(b, ",\"cap\":"); if (m->cap) rio_buf_u64(b, (uint64_t)m->cap); else rio_buf_str(b, "null");
	rio_buf_str(b, ",\"layout\":\""); rio_buf_str(b, layout); rio_buf_str(b, "\",\"names\":[");
	for (int64_t i = 0; i < r->n; i++) { if (i) rio_buf_chr(b, ','); rio_buf_json(b, rio_name(r, i)); }
	rio_buf_str(b, "]");
}

rk_status_t rio_ham_write_matrix(rio_out_t *out, const rio_ham_meta_t *m, const rio_reads_t *r, const uint32_t *M, int nth)
{
	ham_ctx_t c = { m, r, M, m->lay.csv ? ',' : '\t' };
	const char *what = rio_out_name(out);
	rio_buf_t b = { 0 };
	rk_status_t st;
	if (m->format == RK_FMT_JSON) {
		ham_json_head(&b, m, r, m->lay.molten ? (m->lay.lower ? "long-lower" : "long") : m->lay.lower ? "lower" : "matrix");
		rio_buf_str(&b, m->lay.molten ? ",\"pairs\":[" : ",\"matrix\":[");
	} else if (!m->lay.molten) {
		if (!m->lay.blank) rio_buf_str(&b, "rktlcs-hamming");
		for (int64_t j = 0; j < r->n; j++) { rio_buf_chr(&b, c.sep); rio_buf_str(&b, rio_name(r, j)); }
		rio_buf_chr(&b, '\n');
	} else if (m->lay.header) rio_buf_printf(&b, "sequence_1%csequence_2%cdistance\n", c.sep, c.sep);
	st = rio_buf_write(&b, out->fp, what);
	if (!st) st = rio_rows(out->fp, what, r->n, nth, m->lay.molten ? fmt_molten_row : fmt_matrix_row, &c);
	if (!st && m->format == RK_FMT_JSON) {
		rio_buf_str(&b, "\n]}\n");
		st = rio_buf_write(&b, out->fp, what);
	}
	rio_buf_free(&b);
	return st;
}

#define PAIRS_BLOCK 8192   /* pairs a row of rio_rows: a piece of millions formats on every thread */

typedef struct {
	const ham_ctx_t *c;
	const ham_pair_t *p;
	int64_t n, before;
} pairs_ctx_t;

static void fmt_pair_block(rio_buf_t *b, int64_t k, const void *cp)
{
	const pairs_ctx_t *x = cp;
	const int64_t q1 = (k + 1) * PAIRS_BLOCK < x->n ? (k + 1) * PAIRS_BLOCK : x->n;
	for (int64_t q = k * PAIRS_BLOCK; q < q1; q++) fmt_pair(b, x->c, x->p[q].i, x->p[q].j, x->p[q].d, x->before + q);
}

rk_status_t rio_ham_write_pairs(rio_out_t *out, const rio_ham_meta_t *m, const rio_reads_t *r, const ham_pair_t *p, int64_t n,
                                int64_t before, int first, int last, int n_threads)
{
	ham_ctx_t c = { m, r, 0, m->lay.csv ? ',' : '\t' };
	const char *what = rio_out_name(out);
	rio_buf_t b = { 0 };
	rk_status_t st = RK_OK;
	if (first && m->format == RK_FMT_JSON) {
		ham_json_head(&b, m, r, "pairs");
		rio_buf_printf(&b, ",\"max_dist\":%lld,\"pairs\":[", (long long)m->lay.max_dist);
	} else if (first && m->lay.header) rio_buf_printf(&b, "sequence_1%csequence_2%cdistance\n", c.sep, c.sep);
	st = rio_buf_write(&b, out->fp, what);
	const pairs_ctx_t x = { &c, p, n, before };
	if (!st && n > 0) st = rio_rows(out->fp, what, (n + PAIRS_BLOCK - 1) / PAIRS_BLOCK, n_threads, fmt_pair_block, &x);
	if (!st && last && m->format == RK_FMT_JSON) rio_buf_str(&b, "\n]}\n");
	if (!st) st = rio_buf_write(&b, out->fp, what);
	rio_buf_free(&b);
	return st;
}
