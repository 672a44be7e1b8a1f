/* SAM, BAM and CRAM input (rio_sam.h): the reads as sequenced, as `samtools fastq` gives
 * them. htslib decodes the records; what a record becomes (which are left out, the strand,
 * the checks and their messages) is here, so that every mode reads the three alike. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <htslib/sam.h>
#include <htslib/bgzf.h>
#include <htslib/hfile.h>
#include "io/rio_sam.h"

static struct {
	char *reference;     /* CRAM's reference (--reference), NULL: htslib's REF_PATH rules */
	int keep_secondary;  /* keep secondary and supplementary records */
	int as_stored;       /* SEQ as stored: reverse-strand records not turned back */
	int refuse_aligned;  /* hamming: a mapped record is an error */
} rio_sam_opt;

void rio_set_sam(const char *reference, int keep_secondary, int as_stored)
{
	free(rio_sam_opt.reference);
	rio_sam_opt.reference = reference ? strdup(reference) : 0;
	rio_sam_opt.keep_secondary = keep_secondary;
	rio_sam_opt.as_stored = as_stored;
}

void rio_set_sam_refuse_aligned(int on) { rio_sam_opt.refuse_aligned = on; }

struct rio_sam_s {
	htsFile *hf;
	sam_hdr_t *hdr;
	bam1_t *b;
	const char *no_eof; /* a file without its end-of-file block: "BGZF" or "CRAM" */
	int check_eof;      /* BAM or compressed SAM read as a stream: its last block must be BGZF's EOF */
	char *seq;
	size_t m_seq;
};

int rio_sam_format(hFILE *h, const char *path)
{
	htsFormat fmt;
	if (hts_detect_format2(h, path, &fmt) < 0) return 0;
	return fmt.category == sequence_data && (fmt.format == sam || fmt.format == bam || fmt.format == cram);
}

rio_sam_t *rio_sam_open(hFILE *h, const char *path)
{
	rio_sam_t *s = calloc(1, sizeof *s);
	if (!s) { hclose_abruptly(h); rk_set_error("out of memory"); return 0; }
	s->hf = hts_hopen(h, path, "r");
	if (!s->hf) { hclose_abruptly(h); free(s); rk_set_error("%s: cannot open as SAM/BAM/CRAM", path); return 0; }
	const htsFormat *fmt = hts_get_format(s->hf);
	if (fmt->format == cram && rio_sam_opt.reference && hts_set_fai_filename(s->hf, rio_sam_opt.reference) != 0) {
		rk_set_error("%s: cannot use the reference %s", path, rio_sam_opt.reference);
		rio_sam_close(s);
		return 0;
	}
	/* a file without BGZF's (or CRAM's) end-of-file block is read up to its end first, so that
	 * the message names the record there, as for FASTA; a stream is checked at its end */
	const int eof = hts_check_EOF(s->hf);
	s->no_eof = eof == 0 ? (fmt->format == cram ? "CRAM" : "BGZF") : 0;
	s->check_eof = eof == 2 && fmt->format != cram && fmt->compression == bgzf;
	if (!(s->hdr = sam_hdr_read(s->hf)) || !(s->b = bam_init1())) {
		rk_set_error("%s: cannot read the %s header%s", path, hts_format_file_extension(fmt),
		             fmt->format == cram ? " (a CRAM file that needs its reference: --reference FILE)" : "");
		rio_sam_close(s);
		return 0;
	}
	return s;
}

void rio_sam_close(rio_sam_t *s)
{
	if (!s) return;
	if (s->b) bam_destroy1(s->b);
	if (s->hdr) sam_hdr_destroy(s->hdr);
	if (s->hf) hts_close(s->hf);
	free(s->seq);
	free(s);
}

/* The record's bases as sequenced: reverse-strand records are complemented back. */
static int rio_sam_bases(rio_sam_t *s, const uint8_t *norm, size_t *len, char *bad)
{
	static const char comp[16] = "=TGKCYSBAWRDMHVN";   /* seq_nt16_str's complements */
	const bam1_t *b = s->b;
	const size_t n = (size_t)b->core.l_qseq;
	if (n + 1 > s->m_seq) {
		char *p = realloc(s->seq, n + 1);
		if (!p) return -1;
		s->seq = p; s->m_seq = n + 1;
	}
	const uint8_t *q = bam_get_seq(b);
	const int rev = (b->core.flag & BAM_FREVERSE) && !rio_sam_opt.as_stored;
	for (size_t i = 0; i < n; i++) {
		const int c = rev ? comp[bam_seqi(q, n - 1 - i)] : seq_nt16_str[bam_seqi(q, i)];
		if (!(s->seq[i] = (char)norm[c])) { *bad = (char)c; return -2; }
	}
	*len = n;
	return 0;
}

#define RIO_SAM_BAD(st_, ...) do { snprintf(why, why_l, __VA_ARGS__); *st = (st_); return -1; } while (0)

int rio_sam_next(rio_sam_t *s, const uint8_t *norm, rio_sam_rec_t *rec, char *why, size_t why_l, rk_status_t *st)
{
	for (;;) {
		const int r = sam_read1(s->hf, s->hdr, s->b);
		if (r == -1) {
			if (s->no_eof || (s->check_eof && !s->hf->fp.bgzf->last_block_eof))
				RIO_SAM_BAD(RK_EINPUT, "truncated %s file: it ends without its end-of-file block", s->no_eof ? s->no_eof : "BGZF");
			return 0;
		}
		rec->n_read++;
		rec->name = 0;   /* the record that could not be read has no name */
		if (r < -1) RIO_SAM_BAD(RK_EINPUT, "corrupt or truncated %s record", hts_format_file_extension(hts_get_format(s->hf)));
		const uint16_t fl = s->b->core.flag;
		rec->name = bam_get_qname(s->b);
		if ((fl & (BAM_FSECONDARY | BAM_FSUPPLEMENTARY)) && !rio_sam_opt.keep_secondary) continue;
		if (rio_sam_opt.refuse_aligned && !(fl & BAM_FUNMAP))
			RIO_SAM_BAD(RK_EINPUT, "an aligned record: hamming compares the columns of an alignment given as FASTA "
			                       "(aligned reads need a consensus or pileup per sample first)");
		for (const unsigned char *q = (const unsigned char *)rec->name; *q; q++)   /* as in FASTA: no blanks, no control bytes */
			if (*q <= ' ' || *q == 0x7f) RIO_SAM_BAD(RK_EINPUT, "blank or control byte 0x%02x in QNAME", *q);
		if (!rec->name[0]) RIO_SAM_BAD(RK_EINPUT, "empty QNAME");
		if (s->b->core.l_qseq == 0) RIO_SAM_BAD(RK_EINPUT, "no sequence (SEQ is '*')");
		char bad = 0;
		const int e = rio_sam_bases(s, norm, &rec->len, &bad);
		if (e == -1) RIO_SAM_BAD(RK_ERES, "out of memory");
		if (e == -2) RIO_SAM_BAD(RK_EINPUT, "illegal base '%c' in SEQ", bad);
		rec->seq = s->seq;
		return 1;
	}
}
