/* The 2-bit code table of core/reads.h. */
#include "core/reads.h"

const uint8_t rio_code[256] = {
	['A'] = 0, ['C'] = 1, ['G'] = 2, ['T'] = 3,
	/* everything else is unknown */
	[0] = 4, [1 ... '@'] = 4, ['B'] = 4, ['D' ... 'F'] = 4, ['H' ... 'S'] = 4,
	['U' ... 255] = 4,
};
