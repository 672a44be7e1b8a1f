/* Fuzz target: the reader (every input path: FASTA, FASTQ, gzip, BGZF, detected by content)
 * and the formatter of what it accepts. Invariants: a record has a name without blanks or
 * control bytes and a non-empty normalized sequence; the JSON escaper always gives valid
 * UTF-8 without raw control bytes. */
#include "fuzz_util.h"
#include "io/fmt.h"

static int fz_utf8_ok(const unsigned char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		unsigned char c = s[i];
		int k = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
		if (!k || i + k > n || c < 0x20) return 0;
		for (int j = 1; j < k; j++) if ((s[i + j] & 0xc0) != 0x80) return 0;
		i += (size_t)k;
	}
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1) return 0;
	rio_reads_t r;
	rk_status_t st = fz_read(data + 1, size - 1, data[0] & 1, &r);
	if (st) { fz_check_error(st); return 0; }
	FZ_ASSERT(r.n >= 1);
	rio_buf_t b = { 0 };
	for (int64_t i = 0; i < r.n; i++) {
		const char *nm = rio_name(&r, i), *s = rio_seq(&r, i);
		FZ_ASSERT(nm[0] != 0);
		for (const char *p = nm; *p; p++) FZ_ASSERT((unsigned char)*p > 0x20 && *p != 0x7f);
		FZ_ASSERT(rio_len(&r, i) >= 1 && (int64_t)strlen(s) == rio_len(&r, i));
		for (const char *p = s; *p; p++) FZ_ASSERT((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || *p == '.' || *p == '-' || *p == '*');
		b.l = 0;
		rio_buf_json(&b, nm);
		FZ_ASSERT(!b.oom && fz_utf8_ok((const unsigned char *)b.s, b.l));
	}
	rio_buf_free(&b);
	rio_reads_free(&r);
	return 0;
}
