/* io layer: a small JSON reader for the files rktlcs writes itself and reads back (the rates
 * file of `rktlcs calibrate`, docs/calibrate.md): objects, arrays, strings, numbers, true,
 * false, null; nesting at most RIO_JSON_DEPTH. Not a general-purpose parser: \u escapes
 * outside ASCII are kept as '?'. */
#ifndef RIO_JSON_H
#define RIO_JSON_H

#include <stddef.h>
#include "rktlcs.h"

#define RIO_JSON_DEPTH 32
#define RIO_JSON_MAX_BYTES (1 << 20)   /* a rates file is a few kB: anything larger is not one */

typedef enum { RIO_JSON_NULL, RIO_JSON_BOOL, RIO_JSON_NUM, RIO_JSON_STR, RIO_JSON_ARR, RIO_JSON_OBJ } rio_json_type_t;

typedef struct rio_json_s {
	rio_json_type_t type;
	double num;                 /* NUM; BOOL: 0 or 1 */
	char *str;                  /* STR */
	int n;                      /* ARR, OBJ: members */
	char **keys;                /* OBJ: each member's key */
	struct rio_json_s *kids;    /* ARR, OBJ: the members */
} rio_json_t;

/* Parses text[0, len) into *out (freed with rio_json_free, also after a failure). RK_EINPUT
 * with rk_error() saying what and where (byte offset) when it is not one JSON value. */
rk_status_t rio_json_parse(const char *text, size_t len, rio_json_t *out);
/* The whole of a file (at most RIO_JSON_MAX_BYTES): RK_EINPUT naming the file when it cannot be
 * read or parsed. */
rk_status_t rio_json_read_file(const char *path, rio_json_t *out);
void rio_json_free(rio_json_t *v);

/* an object's member (0: none, or v is not an object) */
const rio_json_t *rio_json_get(const rio_json_t *v, const char *key);
/* a number, or dflt where v is absent or not a number */
double rio_json_num(const rio_json_t *v, double dflt);
/* a string, or 0 where v is absent or not a string (owned by v) */
const char *rio_json_str(const rio_json_t *v);

#endif
