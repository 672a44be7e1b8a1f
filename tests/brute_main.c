/* rkt_brute FILE -k K -t T -tau TAU [--candidates F] [--occurrences]
 * Same table as the CLI (comment lines aside), from the brute force. Reads only simple
 * FASTA (one sequence line per record), as written by the test generator. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include "brute.h"

int main(int argc, char **argv)
{
	const char *path = 0, *cand = 0;
	long k = -1, t = -1, tau = -1;
	int occ = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-k")) k = atol(argv[++i]);
		else if (!strcmp(argv[i], "-t")) t = atol(argv[++i]);
		else if (!strcmp(argv[i], "-tau")) tau = atol(argv[++i]);
		else if (!strcmp(argv[i], "--candidates")) cand = argv[++i];
		else if (!strcmp(argv[i], "--occurrences")) occ = 1;
		else path = argv[i];
	}
	FILE *fp = fopen(path, "r");
	if (!fp || k < 0 || t < 1 || tau < 1) { fprintf(stderr, "usage: rkt_brute FILE -k K -t T -tau TAU\n"); return 2; }
	int m = 0, cap = 0;
	char **name = 0, **s = 0, line[1 << 16];
	long *len = 0;
	while (fgets(line, sizeof line, fp)) {
		size_t l = strcspn(line, "\r\n");
		line[l] = 0;
		if (line[0] == '>') {
			if (m == cap) {
				cap = cap ? 2 * cap : 64;
				name = realloc(name, sizeof(char *) * cap); s = realloc(s, sizeof(char *) * cap);
				len = realloc(len, sizeof(long) * cap);
			}
			line[strcspn(line, " \t")] = 0;
			name[m] = strdup(line + 1); s[m] = strdup(""); len[m] = 0;
			m++;
		} else if (m > 0) {
			s[m - 1] = realloc(s[m - 1], (size_t)len[m - 1] + l + 1);
			for (size_t p = 0; p < l; p++) {
				char c = (char)toupper((unsigned char)line[p]);
				s[m - 1][len[m - 1]++] = c == 'U' ? 'T' : c;
			}
			s[m - 1][len[m - 1]] = 0;
		}
	}
	fclose(fp);
	bf_cand_t *c = malloc(sizeof(bf_cand_t) * (size_t)m);
	bf_candidates(m, s, len, k, t, tau, c);
	long w = bf_winner(m, c);
	const char *hdr = "index\tname\tpos\tlen\tsupport\tsubstring\n";
	if (cand) {
		FILE *cf = fopen(cand, "w");
		fputs(hdr, cf);
		for (int i = 0; i < m; i++)
			fprintf(cf, "%d\t%s\t%ld\t%ld\t%ld\t%.*s\n", i + 1, name[i], c[i].pos, c[i].len, c[i].support,
			        (int)c[i].len, s[i] + (c[i].pos > 0 ? c[i].pos : 0));
		fclose(cf);
	}
	fputs(hdr, stdout);
	if (w >= 0) {
		printf("%ld\t%s\t%ld\t%ld\t%ld\t%.*s\n", w + 1, name[w], c[w].pos, c[w].len, c[w].support, (int)c[w].len,
		       s[w] + c[w].pos);
		if (occ) {
			printf("index\tname\tpos\tmismatches\n");
			for (int j = 0; j < m; j++) {
				if (j == w) continue;
				for (long y = 0; y + c[w].len <= len[j]; y++) {
					if (bf_lcp(s[w], len[w], c[w].pos, s[j], len[j], y, k) < c[w].len) continue;
					long mm = 0;
					for (long p = 0; p < c[w].len; p++) {
						char a = s[w][c[w].pos + p], b = s[j][y + p];
						mm += !(a == b && strchr("ACGT", a));
					}
					printf("%d\t%s\t%ld\t%ld\n", j + 1, name[j], y, mm);
					break;
				}
			}
		}
	}
	for (int i = 0; i < m; i++) { free(name[i]); free(s[i]); }
	free(name); free(s); free(len); free(c);
	return 0;
}
