/* librktlcs in a few lines (docs/library.md): the edit distance and CIGAR of a read inside a
 * reference (infix, edlib's HW), and an LCS. Build against an install:
 *   cc lib_example.c $(pkg-config --cflags --libs rktlcs) -o lib_example */
#include <stdio.h>
#include <string.h>
#include <librktlcs.h>

int main(void)
{
	const char *read = "ACGTTGCA", *ref = "TTTTACGTAGCATTTT";
	rkl_lev_opt_t o;
	rkl_lev_opt_init(&o);
	o.mode = RKL_INFIX;
	o.cigar = 1;
	rkl_lev_result_t r;
	if (rkl_lev(read, (int64_t)strlen(read), ref, (int64_t)strlen(ref), &o, &r) != RKL_OK) {
		fprintf(stderr, "rkl_lev: %s\n", rkl_error());
		return 1;
	}
	printf("lev\t%lld\t%lld\t%lld\t%s\n", (long long)r.distance, (long long)r.b_start, (long long)r.b_end, r.cigar);
	rkl_lev_result_free(&r);   /* the CIGAR is the caller's */

	rkl_lcs_opt_t lo;
	rkl_lcs_opt_init(&lo);
	lo.subsequence = 1;
	rkl_lcs_result_t l;
	if (rkl_lcs(read, (int64_t)strlen(read), ref, (int64_t)strlen(ref), &lo, &l) != RKL_OK) return 1;
	printf("lcs\t%lld\t%s\n", (long long)l.length, l.subsequence);
	rkl_lcs_result_free(&l);
	return 0;
}
