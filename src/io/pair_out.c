/* lev and lcs tables. A path is written as SAM-like runs ("12=1X3I", lcs "12M3I2D"); the
 * LCS subsequence is the symbols of A at the M runs. */
#include "io/pair_out.h"

static const char *const pair_align[] = { "global", "prefix", "infix" };

/* runs as CIGAR text; ops maps the op codes to letters (PAF writes lcs's M as =). The room of
 * the whole CIGAR is taken at once (a run is at most 20 digits and its op), and the runs go
 * through a local pointer: one growth test a row, not two a run. */
static void pair_runs(rio_buf_t *b, const aln_path_t *p, const char *ops)
{
	if (!p || p->n == 0 || rio_buf_need(b, (size_t)p->n * 21 + 4)) return;
	char *d = b->s + b->l;
	for (int64_t q = 0; q < p->n; q++) {
		d += rio_u64_put(d, p->run[q] >> 3);
		*d++ = ops[p->run[q] & 7];
	}
	b->l = (size_t)(d - b->s);
}

static void pair_path(rio_buf_t *b, const aln_path_t *p)
{
	if (!p || p->n == 0) { rio_buf_chr(b, '*'); return; }
	pair_runs(b, p, ALN_OPS);
}

/* the ends, comma-separated (TSV) or as a JSON array's items */
static void pair_ends(rio_buf_t *b, const aln_ends_t *e)
{
	for (int64_t q = 0; q < e->n; q++) {
		if (q) rio_buf_chr(b, ',');
		rio_buf_i64(b, e->end[q]);
	}
}

/* PAF (minimap2's columns): qname qlen qstart qend strand tname tlen tstart tend matches
 * block_len mapq, then NM:i: (edits: X, I, D; lcs: I, D) and cg:Z:. A pair beyond -k is
 * minimap2's --paf-no-hit line with the target kept: strand and coordinates *, 0. */
static void pair_paf(rio_buf_t *b, const char *name_a, int64_t la, const char *name_b, int64_t lb, int64_t val,
                     const aln_path_t *path, const aln_ends_t *ends)
{
	rio_buf_str(b, name_a); rio_buf_chr(b, '\t');
	rio_buf_i64(b, la); rio_buf_chr(b, '\t');
	if (val < 0) {
		rio_buf_str(b, "0\t0\t*\t"); rio_buf_str(b, name_b); rio_buf_chr(b, '\t');
		rio_buf_i64(b, lb); rio_buf_str(b, "\t0\t0\t0\t0\t0\n");
		return;
	}
	int64_t match = 0, block = 0, nm = 0;
	for (int64_t q = 0; path && q < path->n; q++) {
		int64_t len = (int64_t)(path->run[q] >> 3);
		int op = (int)(path->run[q] & 7);
		block += len;
		if (op == ALN_EQ || op == ALN_M) match += len; else nm += len;
	}
	const int64_t t0 = ends ? ends->start : 0, t1 = ends && ends->n ? ends->end[0] : lb;
	rio_buf_str(b, "0\t"); rio_buf_i64(b, la); rio_buf_str(b, "\t+\t");
	rio_buf_str(b, name_b); rio_buf_chr(b, '\t');
	rio_buf_i64(b, lb); rio_buf_chr(b, '\t');
	rio_buf_i64(b, t0); rio_buf_chr(b, '\t');
	rio_buf_i64(b, t1); rio_buf_chr(b, '\t');
	rio_buf_i64(b, match); rio_buf_chr(b, '\t');
	rio_buf_i64(b, block); rio_buf_str(b, "\t255\tNM:i:");
	rio_buf_i64(b, nm); rio_buf_str(b, "\tcg:Z:");
	pair_runs(b, path, "=XID=");
	rio_buf_chr(b, '\n');
}

static void pair_subseq(rio_buf_t *b, const aln_path_t *p, const char *a)
{
	int64_t i = 0;
	for (int64_t q = 0; p && q < p->n; q++) {
		int64_t len = (int64_t)(p->run[q] >> 3);
		int op = (int)(p->run[q] & 7);
		if (op == ALN_M) rio_buf_strn(b, a + i, (size_t)len);
		if (op != ALN_D) i += len;  /* M, =, X and I consume A */
	}
}

void rio_pair_head(rio_buf_t *b, const rio_pair_meta_t *m)
{
	const char *mode = m->mode == RIO_LEV ? "lev" : "lcs";
	const int ends = m->mode == RIO_LEV && m->align;
	if (m->format == RK_FMT_PAF) return;   /* PAF has no header */
	if (m->format == RK_FMT_JSON) {
		rio_buf_printf(b, "{\"program\":\"rktlcs\",\"version\":\"%s\",\"mode\":\"%s\",\"input_a\":", RKTLCS_VERSION, mode);
		rio_buf_json(b, m->in_a);
		rio_buf_str(b, ",\"input_b\":");
		if (m->in_b) rio_buf_json(b, m->in_b); else rio_buf_str(b, "null");
		if (m->mode == RIO_LEV) {
			rio_buf_str(b, ",\"k\":"); if (m->k >= 0) rio_buf_i64(b, m->k); else rio_buf_str(b, "null");
			rio_buf_str(b, ",\"max_dist\":"); if (m->max_dist >= 0) rio_buf_i64(b, m->max_dist); else rio_buf_str(b, "null");
			if (ends) rio_buf_printf(b, ",\"alignment\":\"%s\"", pair_align[m->align]);
		}
		rio_buf_str(b, ",\"pairs\":[");
		return;
	}
	rio_buf_printf(b, "#rktlcs %s %s", RKTLCS_VERSION, mode);
	if (m->mode == RIO_LEV && m->k >= 0) rio_buf_printf(b, " k=%lld", (long long)m->k);
	if (ends) rio_buf_printf(b, " mode=%s", pair_align[m->align]);
	if (m->max_dist >= 0) rio_buf_printf(b, " max_dist=%lld", (long long)m->max_dist);
	rio_buf_str(b, m->in_b ? " a=" : " all=");
	rio_buf_printable(b, m->in_a);
	if (m->in_b) { rio_buf_str(b, " b="); rio_buf_printable(b, m->in_b); }
	rio_buf_chr(b, '\n');
	if (m->mode == RIO_LEV && ends) rio_buf_str(b, m->path ? "name_a\tname_b\tlen_a\tlen_b\tdistance\tends\tstart\tcigar\n" : "name_a\tname_b\tlen_a\tlen_b\tdistance\tends\n");
	else if (m->mode == RIO_LEV) rio_buf_str(b, m->path ? "name_a\tname_b\tlen_a\tlen_b\tdistance\tcigar\n" : "name_a\tname_b\tlen_a\tlen_b\tdistance\n");
	else {
		rio_buf_str(b, "name_a\tname_b\tlen_a\tlen_b\tlcs");
		if (m->seq) rio_buf_str(b, "\tsubsequence");
		if (m->path) rio_buf_str(b, "\tpath");
		rio_buf_chr(b, '\n');
	}
}

void rio_pair_row(rio_buf_t *b, const rio_pair_meta_t *m, const char *name_a, int64_t la, const char *name_b, int64_t lb,
                  const char *seq_a, int64_t val, const aln_path_t *path, const aln_ends_t *ends)
{
	const int known = val >= 0;
	if (m->format == RK_FMT_PAF) { pair_paf(b, name_a, la, name_b, lb, val, path, ends); return; }
	if (m->format == RK_FMT_JSON) {
		rio_buf_str(b, ",\n{\"name_a\":"); rio_buf_json(b, name_a);
		rio_buf_str(b, ",\"name_b\":"); rio_buf_json(b, name_b);
		rio_buf_str(b, ",\"len_a\":"); rio_buf_i64(b, la);
		rio_buf_str(b, ",\"len_b\":"); rio_buf_i64(b, lb);
		rio_buf_str(b, m->mode == RIO_LEV ? ",\"distance\":" : ",\"lcs\":");
		if (known) rio_buf_i64(b, val); else rio_buf_str(b, "null");
		if (ends) {
			rio_buf_str(b, ",\"ends\":[");
			pair_ends(b, ends);
			rio_buf_chr(b, ']');
			if (m->path) { rio_buf_str(b, ",\"start\":"); if (known) rio_buf_i64(b, ends->start); else rio_buf_str(b, "null"); }
		}
		/* every row has every key of its mode (docs/lev.md, lcs.md): null where not asked for */
		if (m->mode == RIO_LEV) {
			rio_buf_str(b, ",\"cigar\":");
			if (known && m->path) { rio_buf_chr(b, '"'); pair_path(b, path); rio_buf_chr(b, '"'); }
			else rio_buf_str(b, "null");
		} else {
			rio_buf_str(b, ",\"subsequence\":");
			if (m->seq) { rio_buf_chr(b, '"'); pair_subseq(b, path, seq_a); rio_buf_chr(b, '"'); }
			else rio_buf_str(b, "null");
			rio_buf_str(b, ",\"path\":");
			if (m->path) { rio_buf_chr(b, '"'); pair_path(b, path); rio_buf_chr(b, '"'); }
			else rio_buf_str(b, "null");
		}
		rio_buf_chr(b, '}');
		return;
	}
	rio_buf_str(b, name_a); rio_buf_chr(b, '\t');
	rio_buf_str(b, name_b); rio_buf_chr(b, '\t');
	rio_buf_i64(b, la); rio_buf_chr(b, '\t');
	rio_buf_i64(b, lb); rio_buf_chr(b, '\t');
	if (known) rio_buf_i64(b, val); else rio_buf_chr(b, '*');
	if (ends) {
		rio_buf_chr(b, '\t');
		if (known) pair_ends(b, ends); else rio_buf_chr(b, '*');
		if (m->path) { rio_buf_chr(b, '\t'); if (known) rio_buf_i64(b, ends->start); else rio_buf_chr(b, '*'); }
	}
	if (m->mode == RIO_LEV && m->path) { rio_buf_chr(b, '\t'); if (known) pair_path(b, path); else rio_buf_chr(b, '*'); }
	if (m->mode == RIO_LCS && m->seq) { rio_buf_chr(b, '\t'); pair_subseq(b, path, seq_a); }
	if (m->mode == RIO_LCS && m->path) { rio_buf_chr(b, '\t'); pair_path(b, path); }
	rio_buf_chr(b, '\n');
}

void rio_pair_tail(rio_buf_t *b, const rio_pair_meta_t *m)
{
	if (m->format == RK_FMT_JSON) rio_buf_str(b, "\n]}\n");
}
