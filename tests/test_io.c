/* Reader unit tests: every input form of SPEC section 2 and the error messages.
 * "test_io bgzf IN OUT" also serves the shell tests as a BGZF compressor. */
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <zlib.h>
#include <htslib/bgzf.h>
#include "testutil.h"
#include "io/rio.h"

static char tmpdir[256];

static const char *put(const char *name, const char *data, size_t n, int how)
{
	static char path[512];
	snprintf(path, sizeof path, "%s/%s", tmpdir, name);
	if (how == 0) { FILE *fp = fopen(path, "wb"); fwrite(data, 1, n, fp); fclose(fp); }
	else if (how == 1) { gzFile g = gzopen(path, "wb"); gzwrite(g, data, (unsigned)n); gzclose(g); }
	else {
		BGZF *b = bgzf_open(path, "w");
		if (bgzf_write(b, data, n) < 0) CHECK(0, "bgzf_write %s", path);
		bgzf_close(b);
	}
	return path;
}

static void expect(const char *what, const char *data, int how, int n, const char *names[], const char *seqs[])
{
	rio_reads_t r;
	const char *p = put(what, data, strlen(data), how);
	rk_status_t st = rio_read_all(p, &r);
	CHECK(st == RK_OK, "%s: status %d (%s)", what, st, rk_error());
	if (st) return;
	CHECK(r.n == n, "%s: %lld records, want %d", what, (long long)r.n, n);
	for (int i = 0; i < n && i < r.n; i++) {
		CHECK(!strcmp(rio_name(&r, i), names[i]), "%s: name %d '%s' want '%s'", what, i, rio_name(&r, i), names[i]);
		CHECK(!strcmp(rio_seq(&r, i), seqs[i]), "%s: seq %d '%s' want '%s'", what, i, rio_seq(&r, i), seqs[i]);
		CHECK(rio_len(&r, i) == (int64_t)strlen(seqs[i]), "%s: len %d", what, i);
	}
	rio_reads_free(&r);
}

static void expect_err(const char *what, const char *data, size_t n, int how, const char *needle)
{
	rio_reads_t r;
	const char *p = put(what, data, n, how);
	rk_status_t st = rio_read_all(p, &r);
	CHECK(st == RK_EINPUT, "%s: status %d, want input error", what, st);
	CHECK(strstr(rk_error(), what) != NULL, "%s: message does not name the file: %s", what, rk_error());
	CHECK(strstr(rk_error(), needle) != NULL, "%s: message lacks '%s': %s", what, needle, rk_error());
}

/* b has the records of a, byte for byte; frees b */
static void same_reads(const rio_reads_t *a, rio_reads_t *b, const char *what)
{
	CHECK(b->n == a->n && b->n_bases == a->n_bases, "%s: %lld records %lld bases, want %lld %lld", what,
	      (long long)b->n, (long long)b->n_bases, (long long)a->n, (long long)a->n_bases);
	if (b->n == a->n) {
		CHECK(!memcmp(a->off, b->off, sizeof(uint64_t) * (size_t)(a->n + 1)) && !memcmp(a->seq, b->seq, a->off[a->n]),
		      "%s: the sequences differ", what);
		CHECK(!memcmp(a->name_off, b->name_off, sizeof(uint64_t) * (size_t)(a->n + 1)) && !memcmp(a->names, b->names, a->name_off[a->n]),
		      "%s: the names differ", what);
	}
	rio_reads_free(b);
}

/* A bad byte in the middle of the first record of more than `longer` bytes from byte `from`
 * on: the reader, with 4 threads, must name that record. */
static void parallel_bad(char *d, size_t n, size_t from, size_t longer, const char *what)
{
	size_t h = from, e;
	while (h < n && d[h] != '>') h++;
	for (;;) {   /* h: a record's '>', e: the next one's (or the end) */
		for (e = h + 1; e < n && d[e] != '>'; e++) {}
		if (e - h > longer || e == n) break;
		h = e;
	}
	size_t q = h + (e - h) / 2;
	while (d[q] == '\n' || d[q] == '\r') q++;
	const char keep = d[q];
	d[q] = '7';
	int bad_rec = 0;
	for (size_t i = 0; i <= q; i++) bad_rec += d[i] == '>';
	const char *p = put("windowbad.fa", d, n, 0);
	rio_set_threads(4);
	rio_reads_t b;
	char want[64];
	snprintf(want, sizeof want, "record %d (r%d): illegal character '7'", bad_rec, bad_rec);
	CHECK(rio_read_all(p, &b) == RK_EINPUT && strstr(rk_error(), want), "%s: want '%s', got '%s'", what, want, rk_error());
	rio_set_threads(1);
	unlink(p);
	d[q] = keep;
}

/* The parallel reader (a plain FASTA file of 32 MB or more, cut at record boundaries)
 * against one stream: records of every size (1 bp to 3 MB) so that cuts fall inside long
 * records and between short ones, wrapped lines, lower case, U, blank lines and CRLF; the
 * result must be the same bytes and the file must really be parsed in slices. An illegal
 * byte deep in the file gives the one-stream error, with its record number. */
static void test_parallel(void)
{
	const size_t cap = 48u << 20;
	char *d = malloc(cap + (4u << 20));
	size_t n = 0;
	uint64_t x = 12345;
	int rec = 0;
	while (n < cap) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		const size_t len = (x >> 33) % 7 == 0 ? 1 + (x >> 20) % 3000000 : 1 + (x >> 20) % 400;
		const size_t wrap = (x >> 40) % 3 ? 60 + (x >> 44) % 40 : len;
		const int crlf = (x >> 50) % 11 == 0;
		n += (size_t)sprintf(d + n, ">r%d desc %zu%s\n", ++rec, len, crlf ? "\r" : "");
		for (size_t i = 0; i < len; i++) {
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			d[n++] = "ACGTacgtNUn"[(x >> 59) % 11];
			if ((i + 1) % wrap == 0 || i + 1 == len) {
				if (crlf && (x >> 24) % 3 == 0) n += (size_t)sprintf(d + n, " \t ");   /* blanks the parse drops */
				if (crlf) d[n++] = '\r';
				d[n++] = '\n';
				if ((x >> 30) % 50 == 0) d[n++] = '\n';
			}
		}
	}
	char big[512];   /* put() reuses its buffer */
	snprintf(big, sizeof big, "%s", put("big.fa", d, n, 0));
	const char *p = big;
	rio_reads_t a, b;
	/* the threaded reads first: nothing has been read by one stream in this process yet */
	rio_set_threads(3);
	rk_status_t st0 = rio_read_all(p, &b);
	const int sl0 = rio_read_slices();
	rio_set_threads(1);
	CHECK(rio_read_all(p, &a) == RK_OK && rio_read_slices() == 1, "parallel: one stream: %s", rk_error());
	for (int th = 3; th <= 6; th += 3) {
		rio_set_threads(th);
		rk_status_t st = th == 3 ? st0 : rio_read_all(p, &b);
		CHECK(st == RK_OK, "parallel, %d threads: %s", th, rk_error());
		if (st) continue;
		const int sl = th == 3 ? sl0 : rio_read_slices();
		CHECK(sl >= 2, "parallel, %d threads: %.1f MB parsed in %d slice(s), not in parallel", th, n / 1e6, sl);
		char what[64];
		snprintf(what, sizeof what, "parallel, %d threads", th);
		same_reads(&a, &b, what);
		/* lines ending in blanks leave gaps between the slices' bounds: the move closes them */
		CHECK(th == 3 || rio_read_moved() > 0, "parallel, %d threads: CRLF lines, yet no slice was moved into place", th);
	}
	CHECK(a.n == rec, "parallel: one stream read %lld records, want %d", (long long)a.n, rec);
	/* small windows (rk_tune.read_window; 1 GiB in use): 4 KiB, so that most records span
	 * windows, and 1 byte, a window end after every byte (inside headers, CRLF pairs, blank
	 * lines, between '\n' and '>'). The same bytes, read once: in slices (no failed slice
	 * sent the file to a second, one-stream read) and really walked in such windows. */
	const int64_t wins[] = { 4096, 1 };
	for (int w = 0; w < 2; w++) {
		rk_tune.read_window = wins[w];
		rio_set_threads(3);
		char what[64];
		snprintf(what, sizeof what, "parallel, %lld-byte windows", (long long)wins[w]);
		rk_status_t st = rio_read_all(p, &b);
		CHECK(st == RK_OK, "%s: %s", what, rk_error());
		if (st) continue;
		CHECK(rio_read_slices() >= 2 && rio_read_windows() >= (int64_t)n / wins[w],
		      "%s: %d slice(s), %lld windows: not read once in slices of such windows", what, rio_read_slices(),
		      (long long)rio_read_windows());
		same_reads(&a, &b, what);
		/* a bad byte in a record several windows long, so inside the windows of one slice */
		snprintf(what, sizeof what, "parallel, %lld-byte windows, bad byte", (long long)wins[w]);
		parallel_bad(d, n, n / 3, 3 * 4096, what);
	}
	rk_tune.read_window = 0;
	/* a bad byte in a record near the end */
	const size_t at = n - 100;
	size_t q = at;
	while (d[q] == '\n' || d[q] == '\r' || d[q] == '>') q--;
	d[q] = '7';
	int bad_rec = 0;
	for (size_t i = 0; i <= q; i++) bad_rec += d[i] == '>';
	p = put("bigbad.fa", d, n, 0);
	rio_set_threads(4);
	char want[64];
	snprintf(want, sizeof want, "record %d (r%d): illegal character '7'", bad_rec, bad_rec);
	CHECK(rio_read_all(p, &b) == RK_EINPUT && strstr(rk_error(), want), "parallel, bad byte: want '%s', got '%s'", want, rk_error());
	rio_set_threads(1);
	rio_reads_free(&a);
	unlink(p);
	unlink(put("big.fa", "", 0, 0));
	free(d);
}

/* A FASTA file with no blanks at line ends (wrapped lines, blank lines, lower case): every
 * slice is parsed where its symbols belong (rio_slice_bound), none moved, the same reads. */
static void test_parallel_in_place(void)
{
	const size_t cap = 36u << 20;
	char *d = malloc(cap + 4096);
	size_t n = 0;
	uint64_t x = 777;
	int rec = 0;
	while (n < cap) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		const size_t len = 1 + (x >> 33) % 300, wrap = (x >> 40) % 2 ? 60 : len;
		n += (size_t)sprintf(d + n, ">q%d\n", ++rec);
		for (size_t i = 0; i < len; i++) {
			d[n++] = "ACGTacgtN"[(x >> (i % 50)) % 9];
			if ((i + 1) % wrap == 0 || i + 1 == len) d[n++] = '\n';
		}
		if (rec % 97 == 0) d[n++] = '\n';
	}
	char path[512];
	snprintf(path, sizeof path, "%s", put("inplace.fa", d, n, 0));
	rio_reads_t a, b;
	rio_set_threads(1);
	CHECK(rio_read_all(path, &a) == RK_OK, "in place: one stream: %s", rk_error());
	rio_set_threads(4);
	rk_status_t st = rio_read_all(path, &b);
	CHECK(st == RK_OK && rio_read_slices() == 4 && rio_read_moved() == 0, "in place: status %d, %d slice(s), %lld bytes moved: %s", st,
	      rio_read_slices(), (long long)rio_read_moved(), rk_error());
	if (!st) same_reads(&a, &b, "in place");
	else rio_reads_free(&b);
	rio_set_threads(1);
	rio_reads_free(&a);
	unlink(path);
	free(d);
}

/* A FASTQ record among FASTA ones early in a 40 MB file fails the first slice of the parallel
 * reader (on the calling thread), and the file is read again as one stream, successfully:
 * the failed attempt's message must not stay behind for a later failure that sets none. */
static void test_fallback_message(void)
{
	const size_t cap = 40u << 20;
	char *d = malloc(cap + 4096);
	size_t n = (size_t)sprintf(d, ">a\nACGT\n@q\nACGT\n+\nIIII\n");
	int rec = 2;
	while (n < cap) {
		n += (size_t)sprintf(d + n, ">r%d\n", ++rec);
		for (int i = 0; i < 1000; i++) d[n++] = "ACGT"[(i * 7 + rec) % 4];
		d[n++] = '\n';
	}
	char path[512];
	snprintf(path, sizeof path, "%s", put("mixed_big.fa", d, n, 0));
	rio_set_threads(3);
	rio_reads_t r;
	rk_status_t st = rio_read_all(path, &r);
	CHECK(st == RK_OK && r.n == rec && rio_read_slices() == 1, "fallback: status %d, %lld records (want %d), %d slice(s): %s",
	      st, (long long)r.n, rec, rio_read_slices(), rk_error());
	CHECK(!strcmp(rk_error(), "unknown error"), "fallback: a message stayed behind: '%s'", rk_error());
	if (!st) rio_reads_free(&r);
	rio_set_threads(1);
	unlink(path);
	free(d);
}

static const char *putz(const char *name, const char *data, int how) { return put(name, data, strlen(data), how); }

/* rio_peek_varying: the columns where the head's whole records differ, A/C/G/T only, against a
 * count made here; -1 for fewer than two whole records or unequal lengths */
static void test_peek_varying(void)
{
	int64_t k = 0;
	CHECK(rio_peek_varying(putz("v1.fa", ">a\nACGTA\n>b\nACGTT\n>c\nTCNTA\n", 0), &k) == 2 && k == 3, "3 records: columns 0 and 4");
	CHECK(rio_peek_varying(putz("v2.fa", ">a\nAC\nGT\n>b\nacgg\n", 1), &k) == 1 && k == 2, "gzip, lines, case: column 3");
	CHECK(rio_peek_varying(putz("v3.fa", ">a\nACGT\n>b\nACG\n", 0), &k) == -1, "unequal lengths");
	CHECK(rio_peek_varying(putz("v4.fa", ">a\nACGT\n", 0), &k) == -1 && k == 1, "one record");
	CHECK(rio_peek_varying(putz("v5.fq", "@a\nACGT\n+\nIIII\n", 0), &k) == -1, "FASTQ");
	/* records of 30 kb: two whole ones in the 64 KiB head, the third cut off */
	const int L = 30000, n = 3;
	char *d = malloc((size_t)n * (L + 4) + 1), *p = d;
	int64_t want = 0;
	for (int r = 0; r < n; r++) {
		p += sprintf(p, ">%d\n", r);
		for (int j = 0; j < L; j++) p[j] = r == 1 && j % 100 == 7 ? 'C' : r == 2 && j % 50 == 3 ? 'G' : 'A';
		p += L;
		*p++ = '\n';
	}
	for (int j = 0; j < L; j++) want += j % 100 == 7;
	CHECK(rio_peek_varying(put("v6.fa", d, (size_t)(p - d), 2), &k) == want && k == 2, "30 kb records: %lld columns of 2", (long long)want);
	free(d);
	/* one read of a head serves every peek at it (the guesses before MPI asked up to four
	 * times), two files alternating included; a file rewritten is read again */
	char f1[512], f2[512], seq[16];
	snprintf(f1, sizeof f1, "%s", putz("h1.fa", ">a\nACGTA\n>b\nACGTT\n", 0));
	snprintf(f2, sizeof f2, "%s", putz("h2.fa", ">x\nGGGG\n", 0));
	rio_peek_t pk;
	const int r0 = rio_peek_reads();
	for (int i = 0; i < 3; i++) {
		CHECK(rio_peek_input(f1, &pk) && pk.mean_len == 5, "h1: records of 5");
		CHECK(rio_peek_varying(f1, &k) == 1 && k == 2, "h1: one column varies");
		CHECK(rio_peek_first(f2, seq, sizeof seq) == 4 && !memcmp(seq, "GGGG", 4), "h2: its first record");
	}
	CHECK(rio_peek_reads() - r0 == 2, "two files peeked at 9 times: %d reads", rio_peek_reads() - r0);
	putz("h2.fa", ">x\nTTTTTT\n", 0);
	CHECK(rio_peek_first(f2, seq, sizeof seq) == 6 && !memcmp(seq, "TTTTTT", 6) && rio_peek_reads() - r0 == 3, "h2 rewritten: read again");
}

/* every byte value inside a sequence line, at each place of a 40-byte run (the normalization
 * is vectorized: the head, the vector body and the tail), case folded and kept: letters (U to
 * T), '.', '-' and '*' pass, any other byte is an input error */
static void test_every_byte(void)
{
	for (int keep = 0; keep <= 1; keep++)
		for (int b = 1; b < 256; b++) {
			if (b == '\n' || b == '\r' || b == ' ' || b == '\t') continue;   /* line ends and blanks: their own rules */
			const int at = (b * 7) % 40;
			char data[64], want[48];
			memcpy(data, ">x\n", 3);
			for (int q = 0; q < 40; q++) data[3 + q] = q == at ? (char)b : "acgtACGT"[q % 8];
			data[43] = '\n';
			const int letter = (b >= 'A' && b <= 'Z') || (b >= 'a' && b <= 'z'), legal = letter || b == '.' || b == '-' || b == '*';
			for (int q = 0; q < 40; q++) {
				int c = (unsigned char)data[3 + q];
				if (!keep && c >= 'a' && c <= 'z') c -= 32;
				if (c == 'U') c = 'T';
				if (c == 'u') c = 't';
				want[q] = (char)c;
			}
			want[40] = 0;
			rio_reads_t r;
			const char *path = put("byte.fa", data, 44, 0);
			const rk_status_t st = rio_read_all_case(path, &r, keep);
			if (!legal) { CHECK(st == RK_EINPUT, "byte 0x%02x (keep %d): status %d, want an input error", b, keep, st); continue; }
			CHECK(st == RK_OK && r.n == 1 && !strcmp(rio_seq(&r, 0), want), "byte 0x%02x (keep %d): status %d, '%s' want '%s'", b, keep, st,
			      st ? "" : rio_seq(&r, 0), want);
			if (!st) rio_reads_free(&r);
		}
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "bgzf")) {
		FILE *in = fopen(argv[2], "rb");
		BGZF *out = bgzf_open(argv[3], "w");
		char buf[65536];
		size_t n;
		if (!in || !out) return 2;
		while ((n = fread(buf, 1, sizeof buf, in)) > 0)
			if (bgzf_write(out, buf, n) < 0) return 2;
		fclose(in);
		return bgzf_close(out) ? 2 : 0;
	}
	snprintf(tmpdir, sizeof tmpdir, "/tmp/rktlcs_test_io.%d", (int)getpid());
	mkdir(tmpdir, 0700);
	test_parallel();   /* first: the first read of a process may be a parallel one */
	test_parallel_in_place();
	test_fallback_message();
	test_peek_varying();
	test_every_byte();

	const char *n2[] = { "r1", "r2" }, *s2[] = { "ACGTN", "TTGCA" };
	for (int how = 0; how < 3; how++) {
		char name[32];
		snprintf(name, sizeof name, "plain%d.fa", how);
		expect(name, ">r1 some description\nACGTN\n>r2\nTTGCA\n", how, 2, n2, s2);
		snprintf(name, sizeof name, "plain%d.fq", how);
		expect(name, "@r1 desc\nACGTN\n+\nIIIII\n@r2\nTTGCA\n+r2\n@@@@@\n", how, 2, n2, s2);
	}
	/* compressed input with 2 threads: a gzip stream inflates on a thread of its own, BGZF on
	 * htslib's pool; every buffer is freed (LSan checks the unit tests of the ASan build) */
	rio_set_threads(2);
	expect("threads.fa.gz", ">r1 some description\nACGTN\n>r2\nTTGCA\n", 1, 2, n2, s2);
	expect("threads.fq.gz", "@r1 desc\nACGTN\n+\nIIIII\n@r2\nTTGCA\n+r2\n@@@@@\n", 1, 2, n2, s2);
	expect("threads.fa.bgz", ">r1 some description\nACGTN\n>r2\nTTGCA\n", 2, 2, n2, s2);
	rio_set_threads(1);
	expect("crlf.fa", ">r1\r\nACG\r\nTN\r\n>r2\r\nTTGCA\r\n", 0, 2, n2, s2);
	expect("nonl.fa", ">r1\nACGTN\n>r2\nTTGCA", 0, 2, n2, s2);
	expect("nonl.fq", "@r1\nACGTN\n+\nIIIII\n@r2\nTTGCA\n+\nIIIII", 0, 2, n2, s2);
	expect("multiline.fa", ">r1\nAC\nGT\n\nN\n>r2\nT\nT\nG\nC\nA\n", 0, 2, n2, s2);
	expect("multiline.fq", "@r1\nACG\nTN\n+\nII\nIII\n@r2\nTTGCA\n+\nIIIII\n", 0, 2, n2, s2);
	expect("qual_at.fq", "@r1\nACGTN\n+\n@@@@@\n@r2\nTTGCA\n+\n@IIII\n", 0, 2, n2, s2);
	const char *sn[] = { "x" }, *ss[] = { "ACGTTNRY.-*" };
	expect("norm.fa", ">x\tdesc\nacguUnry.-*\n", 0, 1, sn, ss);
	/* a 100 kB line */
	size_t big = 100000;
	char *data = malloc(big + 64), *want = malloc(big + 1);
	strcpy(data, ">long\n");
	for (size_t i = 0; i < big; i++) data[6 + i] = want[i] = "ACGT"[i % 4];
	data[6 + big] = '\n'; data[7 + big] = 0; want[big] = 0;
	const char *ln[] = { "long" }, *ls[] = { want };
	expect("longline.fa", data, 0, 1, ln, ls);
	expect("longline.fa.gz", data, 1, 1, ln, ls);
	free(data); free(want);

	expect_err("empty.fa", "", 0, 0, "empty file");
	expect_err("blank.fa", "\n\n\r\n", 4, 0, "empty file");
	expect_err("empty.fa.gz", "", 0, 1, "empty file");
	expect_err("binary.bin", "\x1f\x01\x02\x03\xff", 5, 0, "not FASTA or FASTQ");
	expect_err("text.txt", "hello world\n", 12, 0, "not FASTA or FASTQ");
	expect_err("digit.fa", ">a\nAC1GT\n", 9, 0, "record 1 (a): illegal character '1'");
	expect_err("ctrl.fa", ">a\nACGT\n>b\nAC\x01GT\n", 17, 0, "record 2 (b): illegal byte 0x01");
	expect_err("zero.fa", ">a\nACGT\n>b\n>c\nAC\n", 17, 0, "record 2 (b): empty sequence");
	expect_err("headeronly.fa", ">a\n", 3, 0, "record 1 (a): empty sequence");
	expect_err("headeronly.fq", "@a\n", 3, 0, "record 1 (a): truncated FASTQ record: missing '+'");
	expect_err("noplus.fq", "@a\nACGT\n@b\nACGT\n+\nIIII\n", 24, 0, "record 1 (a): FASTQ record without '+'");
	expect_err("shortqual.fq", "@a\nACGT\n+\nIII\n", 14, 0, "record 1 (a): quality length 3 differs from sequence length 4");
	expect_err("longqual.fq", "@a\nACGT\n+\nIIIIII\n@b\nAC\n+\nII\n", 28, 0, "record 1 (a): quality length 6");
	expect_err("noqual.fq", "@a\nACGT\n+\n", 10, 0, "record 1 (a): quality length 0");
	expect_err("noname.fa", ">\nACGT\n", 7, 0, "record 1: empty record name");
	expect_err("junk.fq", "@a\nAC\n+\nII\njunk\n", 16, 0, "record 1 (a): unexpected line");
	/* a gzip stream cut in half */
	{
		char path[512], raw[4000];
		for (int i = 0; i < 3990; i++) raw[i] = "ACGT"[(i * 7 + i / 13) % 4];
		memcpy(raw, ">a\n", 3); raw[3990] = '\n';
		snprintf(path, sizeof path, "%s/full.gz", tmpdir);
		gzFile g = gzopen(path, "wb"); gzwrite(g, raw, 3991); gzclose(g);
		FILE *fp = fopen(path, "rb");
		char buf[8192];
		size_t n = fread(buf, 1, sizeof buf, fp);
		fclose(fp);
		expect_err("truncated.fa.gz", buf, n / 2, 0, "truncated");
	}
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
	if (system(cmd)) {}
	return tu_done("test_io");
}
