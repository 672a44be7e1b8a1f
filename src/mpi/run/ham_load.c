/* hamming's input under several ranks (ham_run.h, docs/hamming.md "Ranks"): read once, in
 * parallel, and compacted before it is distributed. A rank holds its share of the raw
 * records, never all of them: the ranks parse byte ranges of a plain FASTA file, or rank 0
 * streams stdin, gzip and FASTQ and hands out batches in turn. The informative columns are
 * found per rank and combined (MPI_MAX over ham_cols_t's bytes), each rank bit-slices its own
 * records, and the compact set (100k x 30 kb: 11 MB against 3 GB raw) is held once per node. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mpi/run/ham_run.h"

#define HAM_TAG_BATCH 4711

/* record k of the job is local record k - start[c] + local[c] of chunk c's owner */
typedef struct {
	int n;
	int64_t *start, *count, *local;
	int *owner;
} ham_chunks_t;

static void ham_chunks_free(ham_chunks_t *c)
{
	free(c->start); free(c->count); free(c->local); free(c->owner);
	memset(c, 0, sizeof *c);
}

static int ham_chunks_add(ham_chunks_t *c, int64_t start, int64_t count, int owner)
{
	int64_t *a = realloc(c->start, sizeof(int64_t) * (size_t)(c->n + 1)), *b = a ? realloc(c->count, sizeof(int64_t) * (size_t)(c->n + 1)) : 0;
	if (a) c->start = a;
	if (b) c->count = b;
	int *o = b ? realloc(c->owner, sizeof(int) * (size_t)(c->n + 1)) : 0;
	if (!o) return -1;
	c->owner = o;
	c->start[c->n] = start; c->count[c->n] = count; c->owner[c->n] = owner;
	c->n++;
	return 0;
}

/* Every rank: where each chunk starts among its owner's records. */
static int ham_chunks_index(ham_chunks_t *c, int size)
{
	int64_t *seen = calloc((size_t)size, sizeof(int64_t));
	if (!seen || !(c->local = malloc(sizeof(int64_t) * (size_t)(c->n + 1)))) { free(seen); return -1; }
	for (int k = 0; k < c->n; k++) { c->local[k] = seen[c->owner[k]]; seen[c->owner[k]] += c->count[k]; }
	free(seen);
	return 0;
}

/* The job's index of this rank's local record i. */
static int64_t ham_global(const ham_chunks_t *c, int rank, int64_t i)
{
	for (int k = 0; k < c->n; k++)
		if (c->owner[k] == rank && i >= c->local[k] && i < c->local[k] + c->count[k]) return c->start[k] + i - c->local[k];
	return -1;
}

/* A plain FASTA file: rank p parses the records that start in its p-th share of the bytes.
 * A bad record is named by the first rank that meets one, numbered among the whole file's:
 * it parses its range again with the records of the ranks before it as the base. *fallback:
 * a FASTQ record in some range; the caller streams the file instead. */
static rk_status_t ham_read_ranges(const rmpi_t *w, const ham_run_opt_t *o, rio_reads_t *r, ham_chunks_t *ck, int *fallback)
{
	int nf = 0;
	rk_status_t st = rio_read_range(o->input, w->rank, w->size, o->keep_case, 0, r, &nf);
	if ((*fallback = rmpi_any(w, nf))) { rio_reads_free(r); return RK_OK; }
	if (w->rank == 0 && !st) rk_debug("hamming: rank 0 parsed its %lld records in %d slice%s", (long long)r->n, rio_read_slices(),
	                                  rio_read_slices() > 1 ? "s" : "");
	int64_t mine[2] = { r->n, st }, *all = malloc(sizeof mine * (size_t)w->size);
	if (!all) { rk_err("rank %d: out of memory", w->rank); MPI_Abort(w->comm, 2); }
	rmpi_allgather(w, mine, sizeof mine, all);
	int64_t base = 0;
	int first = -1;
	for (int p = 0; p < w->size && first < 0; p++) {
		if (all[2 * p + 1]) first = p;
		else base += all[2 * p];
	}
	if (first == w->rank) {
		rio_reads_t t;
		if (st == RK_EINPUT) {
			rio_read_range(o->input, w->rank, w->size, o->keep_case, base, &t, &nf);
			rio_reads_free(&t);
		}
		rk_err("%s", rk_error());
	}
	for (int64_t p = 0, s = 0; first < 0 && p < w->size; s += all[2 * p], p++)
		if (ham_chunks_add(ck, s, all[2 * p], (int)p)) st = RK_ERES;
	free(all);
	return rmpi_agree(w, st);
}

static void ham_send_batch(const rmpi_t *w, const rio_reads_t *b, int to)
{
	uint64_t hdr[3] = { (uint64_t)b->n, b->n ? b->off[b->n] : 0, b->n ? b->name_off[b->n] : 0 };
	rmpi_send(w, hdr, sizeof hdr, to, HAM_TAG_BATCH);
	if (!b->n) return;
	rmpi_send(w, b->off, 8 * (hdr[0] + 1), to, HAM_TAG_BATCH);
	rmpi_send(w, b->name_off, 8 * (hdr[0] + 1), to, HAM_TAG_BATCH);
	rmpi_send(w, b->seq, hdr[1], to, HAM_TAG_BATCH);
	rmpi_send(w, b->names, hdr[2], to, HAM_TAG_BATCH);
}

/* Append records [i0, i1) of b to r (with_seq 0: names only, empty sequences). */
static rk_status_t ham_append(rio_reads_t *r, const rio_reads_t *b, int64_t i0, int64_t i1, int with_seq)
{
	for (int64_t i = i0; i < i1; i++)
		if (rio_reads_push(r, rio_name(b, i), with_seq ? rio_seq(b, i) : "", with_seq ? (size_t)rio_len(b, i) : 0)) {
			rk_err("out of memory for the records");
			return RK_ERES;
		}
	return RK_OK;
}

/* Ranks > 0 of the streamed read: batches from rank 0 until an empty one. */
static rk_status_t ham_recv_batches(const rmpi_t *w, rio_reads_t *r)
{
	rk_status_t st = RK_OK;
	rio_reads_t b;
	for (;;) {
		uint64_t hdr[3];
		rmpi_recv(w, hdr, sizeof hdr, 0, HAM_TAG_BATCH);
		if (!hdr[0]) break;
		memset(&b, 0, sizeof b);
		b.n = (int64_t)hdr[0];
		b.off = malloc(8 * (hdr[0] + 1)); b.name_off = malloc(8 * (hdr[0] + 1));
		b.seq = malloc(hdr[1] + 1); b.names = malloc(hdr[2] + 1);
		if (!b.off || !b.name_off || !b.seq || !b.names) { rk_err("rank %d: out of memory", w->rank); MPI_Abort(w->comm, 2); }
		rmpi_recv(w, b.off, 8 * (hdr[0] + 1), 0, HAM_TAG_BATCH);
		rmpi_recv(w, b.name_off, 8 * (hdr[0] + 1), 0, HAM_TAG_BATCH);
		rmpi_recv(w, b.seq, hdr[1], 0, HAM_TAG_BATCH);
		rmpi_recv(w, b.names, hdr[2], 0, HAM_TAG_BATCH);
		if (!st) st = ham_append(r, &b, 0, b.n, 1);
		rio_reads_free(&b);
	}
	return st;
}

/* stdin, gzip, FASTQ: rank 0 parses the stream (its record numbers are the file's) and hands
 * out batches of rk_tune.ham_batch bases (64M) to the ranks in turn, keeping every size-th;
 * it keeps every record's name for the output. */
static rk_status_t ham_read_stream(const rmpi_t *w, const ham_run_opt_t *o, rio_reads_t *r, rio_reads_t *names, ham_chunks_t *ck)
{
	rk_status_t st = RK_OK;
	if (w->rank == 0) {
		const int64_t B = rk_tune.ham_batch > 0 ? rk_tune.ham_batch : 64ll << 20;
		rio_file_t *f = rio_open(o->input);
		rio_reads_t tmp;
		memset(&tmp, 0, sizeof tmp);
		int eof = 0;
		if (!f) st = rio_open_status(errno);
		else rio_keep_case(f, o->keep_case);
		for (int64_t k = 0, total = 0; !st && !eof; k++) {
			const int owner = (int)(k % w->size);
			rio_reads_t *dst = owner ? &tmp : r;
			const int64_t before = owner ? 0 : r->n;
			tmp.n = 0; tmp.n_bases = 0;
			if ((st = rio_read_batch(f, dst, B, &eof)) != RK_OK) break;
			if (dst->n == before) break;
			if ((st = ham_append(names, dst, before, dst->n, 0)) != RK_OK) break;
			if (ham_chunks_add(ck, total, dst->n - before, owner)) { st = RK_ERES; rk_set_error("out of memory"); break; }
			total += dst->n - before;
			if (owner) ham_send_batch(w, &tmp, owner);
		}
		if (st) rk_err("%s", rk_error());
		rio_close(f);
		rio_reads_free(&tmp);
		tmp.n = 0;
		for (int p = 1; p < w->size; p++) ham_send_batch(w, &tmp, p);
	} else st = ham_recv_batches(w, r);
	if ((st = rmpi_agree(w, st)) != RK_OK) return st;
	int64_t n = ck->n;
	rmpi_bcast_i64(w, 0, &n);
	if (w->rank) {
		ck->n = (int)n;
		ck->start = malloc(sizeof(int64_t) * (size_t)(n + 1)); ck->count = malloc(sizeof(int64_t) * (size_t)(n + 1));
		ck->owner = malloc(sizeof(int) * (size_t)(n + 1));
		if (!ck->start || !ck->count || !ck->owner) { rk_err("rank %d: out of memory", w->rank); MPI_Abort(w->comm, 2); }
	}
	MPI_Bcast(ck->start, (int)n, MPI_INT64_T, 0, w->comm);
	MPI_Bcast(ck->count, (int)n, MPI_INT64_T, 0, w->comm);
	MPI_Bcast(ck->owner, (int)n, MPI_INT, 0, w->comm);
	return RK_OK;
}

/* Rank 0 keeps every rank's names for the output, in rank order (the ranges' order). */
static rk_status_t ham_take_names(void *ctx, int rank, const void *data, uint64_t n)
{
	rio_reads_t *names = ctx;
	(void)rank;
	for (const char *p = data, *e = p + n; p < e; p += strlen(p) + 1)
		if (rio_reads_push(names, p, "", 0)) { rk_set_error("out of memory for the names"); return RK_ERES; }
	return RK_OK;
}

/* Equal lengths and non-empty names, as the one-rank check: the first offending record of the
 * job is named by the rank that holds it, against record 1 (the first rank's with records:
 * rank 0, unless its range held only blank lines). */
static rk_status_t ham_check_all(const rmpi_t *w, const ham_run_opt_t *o, const rio_reads_t *r, const ham_chunks_t *ck, int64_t *len)
{
	int k0 = 0;
	while (k0 < ck->n - 1 && !ck->count[k0]) k0++;
	const int root = ck->owner[k0], mine0 = w->rank == root && r->n;
	int64_t l0 = mine0 ? rio_len(r, 0) : 0, nl = mine0 ? (int64_t)strlen(rio_name(r, 0)) + 1 : 0;
	rmpi_bcast_i64(w, root, &l0);
	rmpi_bcast_i64(w, root, &nl);
	char *name0 = malloc((size_t)nl + 1);
	if (!name0) { rk_err("rank %d: out of memory", w->rank); MPI_Abort(w->comm, 2); }
	if (mine0) memcpy(name0, rio_name(r, 0), (size_t)nl);
	MPI_Bcast(name0, (int)nl, MPI_CHAR, root, w->comm);
	int64_t bad = -1, g = INT64_MAX;
	for (int64_t i = 0; i < r->n && bad < 0; i++)
		if (!rio_name(r, i)[0] || rio_len(r, i) != l0) bad = i;
	int64_t mine = bad < 0 ? INT64_MAX : ham_global(ck, w->rank, bad);
	MPI_Allreduce(&mine, &g, 1, MPI_INT64_T, MPI_MIN, w->comm);
	rk_status_t st = RK_OK;
	if (g != INT64_MAX) {
		st = RK_EINPUT;
		if (mine == g && !rio_name(r, bad)[0]) rk_err("%s: record %lld: empty name", o->input, (long long)g + 1);
		else if (mine == g)
			rk_err("%s: record %lld (%s): length %lld, but record 1 (%s) has %lld; hamming needs equal lengths", o->input,
			       (long long)g + 1, rio_name(r, bad), (long long)rio_len(r, bad), name0, (long long)l0);
	}
	free(name0);
	*len = l0;
	return st;
}

/* The columns of every rank's records, combined: MPI_MAX over the bytes (ham.h). */
static void ham_cols_reduce(const rmpi_t *w, ham_cols_t *c)
{
	for (uint64_t off = 0, n = 3 * (uint64_t)c->len; off < n; off += 1ull << 30) {
		int k = (int)(n - off < (1ull << 30) ? n - off : (1ull << 30));
		MPI_Allreduce(MPI_IN_PLACE, c->v + off, k, MPI_UINT8_T, MPI_MAX, w->comm);
	}
	MPI_Allreduce(MPI_IN_PLACE, c->seen, 256, MPI_UINT8_T, MPI_MAX, w->comm);
}

/* Collective: 1 if any rank's copy of path differs from rank 0's in size or in a hash of its
 * first and last 64 KiB (node-local copies under one name) */
static int ham_copies_differ(const rmpi_t *w, const char *path)
{
	uint64_t me[2] = { 0, 1469598103934665603ull }, r0[2];
	FILE *fp = fopen(path, "rb");
	if (fp) {
		static unsigned char buf[65536];
		fseeko(fp, 0, SEEK_END);
		const off_t size = ftello(fp);
		me[0] = (uint64_t)size;
		for (int end = 0; end < 2; end++) {
			fseeko(fp, end && size > (off_t)sizeof buf ? size - (off_t)sizeof buf : 0, SEEK_SET);
			const size_t n = fread(buf, 1, sizeof buf, fp);
			for (size_t i = 0; i < n; i++) me[1] = (me[1] ^ buf[i]) * 1099511628211ull;
		}
		fclose(fp);
	}
	memcpy(r0, me, sizeof me);
	MPI_Bcast(r0, 2, MPI_UINT64_T, 0, w->comm);
	return rmpi_any(w, memcmp(r0, me, sizeof me) != 0);
}

rk_status_t rmpi_ham_load(const rmpi_t *w, const ham_run_opt_t *o, const ham_opt_t *ho, ham_set_t *h, rio_reads_t *names,
                          rmpi_shm_t *shm, int *have_shm, rmpi_clock_t *clk)
{
	rio_reads_t r;
	ham_chunks_t ck;
	ham_cols_t cols;
	int fallback = 1;
	rk_status_t st;
	memset(&r, 0, sizeof r); memset(&ck, 0, sizeof ck); memset(&cols, 0, sizeof cols); memset(h, 0, sizeof *h);
	memset(names, 0, sizeof *names);
	*have_shm = 0;
	int plain = w->rank == 0 && rio_plain_fasta(o->input);
	MPI_Bcast(&plain, 1, MPI_INT, 0, w->comm);
	/* a rank that cannot see the file (a node-local path), or sees another copy under its name
	 * (its size or its first and last bytes differ from rank 0's), takes the stream from rank 0 */
	if (plain && rmpi_any(w, w->rank && !rio_plain_fasta(o->input))) plain = 0;
	if (plain && ham_copies_differ(w, o->input)) {
		if (w->rank == 0) rk_info("%s: the ranks' copies differ; rank 0 reads it and hands it out", o->input);
		plain = 0;
	}
	if (plain && (st = ham_read_ranges(w, o, &r, &ck, &fallback)) != RK_OK) goto done;
	if (fallback && (st = ham_read_stream(w, o, &r, names, &ck)) != RK_OK) goto done;
	rmpi_clock_lap(clk, RMPI_READ);
	if ((st = ham_chunks_index(&ck, w->size) ? RK_ERES : RK_OK) != RK_OK) rk_err("rank %d: out of memory", w->rank);
	if ((st = rmpi_agree(w, st)) != RK_OK) goto done;
	int64_t n = 0, len;
	for (int k = 0; k < ck.n; k++) n += ck.count[k];
	if ((st = rmpi_agree(w, ham_check_all(w, o, &r, &ck, &len))) != RK_OK) goto done;
	if (!fallback) {
		/* the names to rank 0 for the output */
		uint64_t nb = r.n ? r.name_off[r.n] : 0;
		if ((st = rmpi_gather_each(w, r.names, nb, ham_take_names, names)) != RK_OK) goto done;
	}
	if ((st = ham_cols_scan(&cols, &r, len, ho)) != RK_OK) rk_err("%s", rk_error());
	if ((st = rmpi_agree(w, st)) != RK_OK) goto done;
	ham_cols_reduce(w, &cols);
	if ((st = ham_cols_finish(&cols, ho)) != RK_OK) rk_err("%s", rk_error());
	if ((st = rmpi_agree(w, st)) != RK_OK) goto done;
	ham_set_layout(h, &cols, n, ho);
	const uint64_t row = 8 * (uint64_t)h->stride;
	st = rmpi_shm_alloc(w, row * (uint64_t)n, shm);
	*have_shm = 1;   /* freed by the caller even after a failure: the communicators are made */
	if (st != RK_OK) goto done;
	h->bits = shm->base;
	for (int k = 0; k < ck.n; k++)
		if (ck.owner[k] == w->rank)
			ham_set_slice(h, &cols, &r, ck.local[k], ck.local[k] + ck.count[k], h->bits + ck.start[k] * h->stride, ho->n_threads);
	rio_reads_free(&r);
	rmpi_shm_sync(w, shm);
	for (int k = 0; k < ck.n; k++) rmpi_shm_bcast(w, shm, row * (uint64_t)ck.start[k], row * (uint64_t)ck.count[k], ck.owner[k]);
	rmpi_shm_sync(w, shm);
	if (w->rank == 0 && shm->shared)
		rk_debug("hamming: compact set %.1f MB (%lld x %lld columns) shared by %d ranks on this node", row * (double)n / 1e6,
		         (long long)n, (long long)h->n_cols, shm->node_size);
	else if (w->rank == 0)
		rk_debug("hamming: compact set %.1f MB (%lld x %lld columns), one copy per rank%s", row * (double)n / 1e6, (long long)n,
		         (long long)h->n_cols, rk_tune.no_share ? " (RKTLCS_NO_SHARE)" : "");
	rmpi_clock_lap(clk, RMPI_DIST);
done:
	rio_reads_free(&r);
	ham_chunks_free(&ck);
	ham_cols_free(&cols);
	return st;
}
