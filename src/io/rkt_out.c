/* Rkt-LCS tables. Substrings are bases and unknown symbols only, never escaped. */
#include "io/rkt_out.h"

static void rkt_row(rio_buf_t *b, rk_fmt_t fmt, const rio_reads_t *r, int64_t i, const rkt_cand_t *c)
{
	const char *s = rio_seq(r, i) + (c->pos >= 0 ? c->pos : 0);
	if (fmt == RK_FMT_TSV) {
		rio_buf_i64(b, i + 1); rio_buf_chr(b, '\t');
		rio_buf_str(b, rio_name(r, i)); rio_buf_chr(b, '\t');
		rio_buf_i64(b, c->pos); rio_buf_chr(b, '\t');
		rio_buf_i64(b, c->len); rio_buf_chr(b, '\t');
		rio_buf_i64(b, c->support); rio_buf_chr(b, '\t');
		rio_buf_strn(b, s, (size_t)c->len); rio_buf_chr(b, '\n');
		return;
	}
	rio_buf_str(b, "{\"index\":"); rio_buf_i64(b, i + 1);
	rio_buf_str(b, ",\"name\":"); rio_buf_json(b, rio_name(r, i));
	rio_buf_str(b, ",\"pos\":"); rio_buf_i64(b, c->pos);
	rio_buf_str(b, ",\"len\":"); rio_buf_i64(b, c->len);
	rio_buf_str(b, ",\"support\":"); rio_buf_i64(b, c->support);
	rio_buf_str(b, ",\"substring\":\""); rio_buf_strn(b, s, (size_t)c->len); rio_buf_str(b, "\"}");
}

static void rkt_comment(rio_buf_t *b, const rio_rkt_meta_t *m, int64_t n)
{
	rio_buf_printf(b, "#rktlcs %s rkt k=%lld t=%lld tau=%lld reads=%lld input=", RKTLCS_VERSION, (long long)m->k,
	               (long long)m->t, (long long)m->tau, (long long)n);
	rio_buf_printable(b, m->input);
	rio_buf_chr(b, '\n');
	rio_buf_str(b, "index\tname\tpos\tlen\tsupport\tsubstring\n");
}

rk_status_t rio_rkt_write_result(rio_out_t *out, const rio_rkt_meta_t *m, const rio_reads_t *r, const rkt_cand_t *c,
                                 int64_t win, const rkt_occ_t *occ, int64_t n_occ)
{
	rio_buf_t b = { 0 };
	if (m->format == RK_FMT_TSV) {
		rkt_comment(&b, m, r->n);
		if (win >= 0) rkt_row(&b, m->format, r, win, &c[win]);
		if (win >= 0 && m->occurrences) {
			rio_buf_str(&b, "#occurrences of the winner: supporting read, smallest start, mismatches\n");
			rio_buf_str(&b, "index\tname\tpos\tmismatches\n");
			for (int64_t q = 0; q < n_occ; q++) {
				rio_buf_i64(&b, occ[q].j + 1); rio_buf_chr(&b, '\t');
				rio_buf_str(&b, rio_name(r, occ[q].j)); rio_buf_chr(&b, '\t');
				rio_buf_i64(&b, occ[q].y); rio_buf_chr(&b, '\t');
				rio_buf_i64(&b, occ[q].mm); rio_buf_chr(&b, '\n');
			}
		}
	} else {
		rio_buf_str(&b, "{\"program\":\"rktlcs\",\"version\":\"" RKTLCS_VERSION "\",\"mode\":\"rkt\",\"input\":");
		rio_buf_json(&b, m->input);
		rio_buf_printf(&b, ",\"k\":%lld,\"t\":%lld,\"tau\":%lld,\"reads\":%lld,\"winner\":", (long long)m->k, (long long)m->t,
		               (long long)m->tau, (long long)r->n);
		if (win >= 0) rkt_row(&b, m->format, r, win, &c[win]);
		else rio_buf_str(&b, "null");
		if (m->occurrences) {
			rio_buf_str(&b, ",\"occurrences\":[");
			for (int64_t q = 0; q < n_occ; q++) {
				rio_buf_str(&b, q ? ",{\"index\":" : "{\"index\":"); rio_buf_i64(&b, occ[q].j + 1);
				rio_buf_str(&b, ",\"name\":"); rio_buf_json(&b, rio_name(r, occ[q].j));
				rio_buf_str(&b, ",\"pos\":"); rio_buf_i64(&b, occ[q].y);
				rio_buf_str(&b, ",\"mismatches\":"); rio_buf_i64(&b, occ[q].mm); rio_buf_chr(&b, '}');
			}
			rio_buf_chr(&b, ']');
		}
		rio_buf_str(&b, "}\n");
	}
	rk_status_t st = rio_buf_write(&b, out->fp, rio_out_name(out));
	rio_buf_free(&b);
	return st;
}

rk_status_t rio_rkt_write_candidates(rio_out_t *out, const rio_rkt_meta_t *m, const rio_reads_t *r, const rkt_cand_t *c)
{
	rio_buf_t b = { 0 };
	rk_status_t st = RK_OK;
	const char *what = rio_out_name(out);
	if (m->format == RK_FMT_TSV) rkt_comment(&b, m, r->n);
	else rio_buf_str(&b, "{\"candidates\":[");
	for (int64_t i = 0; i < r->n && !st; i++) {
		if (m->format == RK_FMT_JSON && i) rio_buf_chr(&b, ',');
		rkt_row(&b, m->format, r, i, &c[i]);
		if (b.l > (1 << 20)) st = rio_buf_write(&b, out->fp, what);
	}
	if (m->format == RK_FMT_JSON) rio_buf_str(&b, "]}\n");
	if (!st) st = rio_buf_write(&b, out->fp, what);
	rio_buf_free(&b);
	return st;
}
