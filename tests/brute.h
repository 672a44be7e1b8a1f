/* Independent brute force of SPEC section 3, straight from the definitions.
 * Shares no code with src/algo. */
#ifndef BRUTE_H
#define BRUTE_H
#include <stdint.h>

typedef struct { long pos, len, support; } bf_cand_t;

/* s[i]: normalized symbols (upper case, U already T), len[i] its length. */
long bf_lcp(const char *a, long la, long x, const char *b, long lb, long y, long k);
long bf_maxlcp(const char *a, long la, long x, const char *b, long lb, long k);
void bf_candidates(int m, char **s, const long *len, long k, long t, long tau, bf_cand_t *out);
long bf_winner(int m, const bf_cand_t *c);

#endif
