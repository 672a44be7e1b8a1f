/* hamming output: rows formatted in parallel into buffers, written in order. snp-dists
 * layouts: matrix (corner cell, -b, -c, -L), long (-m); plus the sparse --max-dist pairs
 * and JSON. */
#include <stdlib.h>
#include <string.h>
#include <omp.h>
#include "mpi/rmpi.h"

typedef struct { char *s; size_t l, m; } ham_buf_t;

static int hb_need(ham_buf_t *b, size_t n)
{
	if (b->l + n <= b->m) return 0;
	size_t m = (b->l + n) * 2;
	char *t = realloc(b->s, m);
	if (!t) return -1;
	b->s = t; b->m = m;
	return 0;
}

static void hb_str(ham_buf_t *b, const char *s)
{
	size_t n = strlen(s);
	if (hb_need(b, n + 1)) return;
	memcpy(b->s + b->l, s, n);
	b->l += n;
}

static void hb_chr(ham_buf_t *b, char c)
{
	if (hb_need(b, 1)) return;
	b->s[b->l++] = c;
}

static char hb_dig[10000][4];  /* "0".."9999", not NUL-terminated; lengths in hb_dlen */
static uint8_t hb_dlen[10000];

static void hb_init(void)
{
	if (hb_dlen[0]) return;
	for (int v = 0; v < 10000; v++) {
		char t[8];
		hb_dlen[v] = (uint8_t)snprintf(t, sizeof t, "%d", v);
		memcpy(hb_dig[v], t, hb_dlen[v]);
	}
}

static void hb_u32(ham_buf_t *b, uint32_t v)
{
	if (hb_need(b, 11)) return;
	if (v < 10000) {  /* distances are mostly small: one table copy */
		memcpy(b->s + b->l, hb_dig[v], 4);
		b->l += hb_dlen[v];
		return;
	}
	char t[12];
	int n = 0;
	do { t[n++] = (char)('0' + v % 10); v /= 10; } while (v);
	while (n) b->s[b->l++] = t[--n];
}

static void hb_json_str(ham_buf_t *b, const char *s)
{
	hb_chr(b, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\') { hb_chr(b, '\\'); hb_chr(b, (char)c); }
		else if (c < 0x20) { char e[8]; snprintf(e, sizeof e, "\\u%04x", c); hb_str(b, e); }
		else hb_chr(b, (char)c);
	}
	hb_chr(b, '"');
}

#define HAM_ROWS 256  /* rows formatted at once */

/* Format rows [0, n) with fmt_row in parallel blocks and write them in order. */
static rk_status_t ham_rows(FILE *fp, int64_t n, int nth, void (*fmt_row)(ham_buf_t *, int64_t, const void *), const void *ctx)
{
	hb_init();
	ham_buf_t *bufs = calloc(HAM_ROWS, sizeof *bufs);
	if (!bufs) { rk_set_error("out of memory"); return RK_ERES; }
	rk_status_t st = RK_OK;
	for (int64_t r0 = 0; r0 < n && !st; r0 += HAM_ROWS) {
		int64_t r1 = r0 + HAM_ROWS < n ? r0 + HAM_ROWS : n;
#pragma omp parallel for num_threads(nth) schedule(dynamic, 4)
		for (int64_t r = r0; r < r1; r++) {
			bufs[r - r0].l = 0;
			fmt_row(&bufs[r - r0], r, ctx);
		}
		for (int64_t r = r0; r < r1; r++)
			if (fwrite(bufs[r - r0].s, 1, bufs[r - r0].l, fp) != bufs[r - r0].l) { st = RK_EIO; rk_set_error("write failed"); break; }
	}
	for (int q = 0; q < HAM_ROWS; q++) free(bufs[q].s);
	free(bufs);
	return st;
}

typedef struct {
	const rmpi_opt_t *o;
	const rio_reads_t *r;
	const uint32_t *M;
	const rkt_ham_pair_t *p;
	char sep;
} ham_ctx_t;

static void fmt_matrix_row(ham_buf_t *b, int64_t i, const void *cp)
{
	const ham_ctx_t *c = cp;
	int64_t n = c->r->n, end = c->o->ham_lower ? i + 1 : n;
	const uint32_t *row = c->M + i * n;
	if (c->o->format == RMPI_FMT_JSON) {
		hb_str(b, i ? ",\n[" : "\n[");
		for (int64_t j = 0; j < end; j++) { if (j) hb_chr(b, ','); hb_u32(b, row[j]); }
		hb_chr(b, ']');
		return;
	}
	hb_str(b, rio_name(c->r, i));
	for (int64_t j = 0; j < end; j++) { hb_chr(b, c->sep); hb_u32(b, row[j]); }
	hb_chr(b, '\n');
}

static void fmt_molten_row(ham_buf_t *b, int64_t i, const void *cp)
{
	const ham_ctx_t *c = cp;
	int64_t n = c->r->n;
	const uint32_t *row = c->M + i * n;
	for (int64_t j = 0; j < n; j++) {
		if (c->o->format == RMPI_FMT_JSON) {
			hb_str(b, i || j ? ",\n[" : "\n[");
			hb_json_str(b, rio_name(c->r, i)); hb_chr(b, ',');
			hb_json_str(b, rio_name(c->r, j)); hb_chr(b, ',');
			hb_u32(b, row[j]); hb_chr(b, ']');
			continue;
		}
		hb_str(b, rio_name(c->r, i)); hb_chr(b, c->sep);
		hb_str(b, rio_name(c->r, j)); hb_chr(b, c->sep);
		hb_u32(b, row[j]); hb_chr(b, '\n');
	}
}

static void ham_json_head(FILE *fp, const rmpi_opt_t *o, const rio_reads_t *r, const char *layout)
{
	hb_init();
	ham_buf_t b = { 0, 0, 0 };
	hb_str(&b, "{\"program\":\"rktlcs\",\"version\":\"" RKTLCS_VERSION "\",\"mode\":\"hamming\",\"input\":");
	hb_json_str(&b, o->input);
	hb_str(&b, ",\"all\":"); hb_str(&b, o->ham_all ? "true" : "false");
	hb_str(&b, ",\"keep_case\":"); hb_str(&b, o->ham_keep_case ? "true" : "false");
	hb_str(&b, ",\"cap\":"); if (o->ham_cap) hb_u32(&b, (uint32_t)o->ham_cap); else hb_str(&b, "null");
	hb_str(&b, ",\"layout\":\""); hb_str(&b, layout); hb_str(&b, "\",\"names\":[");
	for (int64_t i = 0; i < r->n; i++) { if (i) hb_chr(&b, ','); hb_json_str(&b, rio_name(r, i)); }
	hb_str(&b, "]");
	fwrite(b.s, 1, b.l, fp);
	free(b.s);
}

rk_status_t rmpi_ham_write_matrix(FILE *fp, const rmpi_opt_t *o, const rio_reads_t *r, const uint32_t *M, int nth)
{
	ham_ctx_t c = { o, r, M, 0, o->ham_csv ? ',' : '\t' };
	if (o->format == RMPI_FMT_JSON) {
		ham_json_head(fp, o, r, o->ham_molten ? "long" : o->ham_lower ? "lower" : "matrix");
		fputs(o->ham_molten ? ",\"pairs\":[" : ",\"matrix\":[", fp);
		rk_status_t st = ham_rows(fp, r->n, nth, o->ham_molten ? fmt_molten_row : fmt_matrix_row, &c);
		fputs("\n]}\n", fp);
		return st;
	}
	if (o->ham_molten) return ham_rows(fp, r->n, nth, fmt_molten_row, &c);
	ham_buf_t b = { 0, 0, 0 };
	if (!o->ham_blank) hb_str(&b, "rktlcs-hamming");
	for (int64_t j = 0; j < r->n; j++) { hb_chr(&b, c.sep); hb_str(&b, rio_name(r, j)); }
	hb_chr(&b, '\n');
	size_t w = b.s ? fwrite(b.s, 1, b.l, fp) : 0;
	free(b.s);
	if (w != b.l) { rk_set_error("write failed"); return RK_EIO; }
	return ham_rows(fp, r->n, nth, fmt_matrix_row, &c);
}

rk_status_t rmpi_ham_write_pairs(FILE *fp, const rmpi_opt_t *o, const rio_reads_t *r, const rkt_ham_pair_t *p, int64_t n,
                                 int64_t before, int first, int last)
{
	char sep = o->ham_csv ? ',' : '\t';
	ham_buf_t b = { 0, 0, 0 };
	hb_init();
	if (first && o->format == RMPI_FMT_JSON) {
		ham_json_head(fp, o, r, "pairs");
		fprintf(fp, ",\"max_dist\":%lld,\"pairs\":[", (long long)o->ham_max_dist);
	}
	for (int64_t q = 0; q < n; q++) {
		if (o->format == RMPI_FMT_JSON) {
			hb_str(&b, before + q ? ",\n[" : "\n[");  /* before: pairs already written */
			hb_json_str(&b, rio_name(r, p[q].i)); hb_chr(&b, ',');
			hb_json_str(&b, rio_name(r, p[q].j)); hb_chr(&b, ',');
			hb_u32(&b, p[q].d); hb_chr(&b, ']');
		} else {
			hb_str(&b, rio_name(r, p[q].i)); hb_chr(&b, sep);
			hb_str(&b, rio_name(r, p[q].j)); hb_chr(&b, sep);
			hb_u32(&b, p[q].d); hb_chr(&b, '\n');
		}
		if (b.l > (1 << 20)) { fwrite(b.s, 1, b.l, fp); b.l = 0; }
	}
	if (b.l) fwrite(b.s, 1, b.l, fp);
	free(b.s);
	if (last && o->format == RMPI_FMT_JSON) fputs("\n]}\n", fp);
	return ferror(fp) ? (rk_set_error("write failed"), RK_EIO) : RK_OK;
}
