/* rktlcs: definitions shared by every layer (status codes, logging, timing). */
#ifndef RKTLCS_H
#define RKTLCS_H

#ifdef __cplusplus
extern "C" {
#endif

#include <stddef.h>
#include <stdint.h>

#ifndef RKTLCS_VERSION
#define RKTLCS_VERSION "0.0.0"
#endif

/* Library status codes; main() maps them to exit codes (usage/input 1, resource 2). */
typedef enum {
	RK_OK = 0,
	RK_EINPUT = 1,   /* bad input or usage */
	RK_ERES = 2,     /* out of memory, device failure */
	RK_EIO = 3       /* cannot open/write a file (reported as exit 1) */
} rk_status_t;

/* Verbosity: 0 quiet (errors only), 1 normal (summary), 2 progress. */
extern int rk_verbose;

/* The one logging helper: "[rktlcs] " + message on stderr. */
void rk_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Last error message of the calling thread, set by library functions that fail. */
void rk_set_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
const char *rk_error(void);

double rk_realtime(void);
size_t rk_peak_rss_kb(void);

/* Parse "12", "4k", "2G" (base 1024); returns 0 on error. */
uint64_t rk_parse_size(const char *s);

static inline int rk_exit_code(rk_status_t st)
{
	return st == RK_OK ? 0 : st == RK_ERES ? 2 : 1;
}

#ifdef __cplusplus
}
#endif

#endif
