#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <ctype.h>
#include <sys/time.h>
#include <sys/resource.h>
#include "rktlcs.h"

int rk_verbose = 1;

static _Thread_local char rk_errbuf[1024];

void rk_log(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	/* one fprintf per line so lines from several ranks do not interleave mid-line */
	fprintf(stderr, "[rktlcs] %s\n", buf);
}

void rk_set_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(rk_errbuf, sizeof rk_errbuf, fmt, ap);
	va_end(ap);
}

const char *rk_error(void)
{
	return rk_errbuf[0] ? rk_errbuf : "unknown error";
}

double rk_realtime(void)
{
	struct timeval tv;
	gettimeofday(&tv, 0);
	return tv.tv_sec + tv.tv_usec * 1e-6;
}

size_t rk_peak_rss_kb(void)
{
	struct rusage r;
	getrusage(RUSAGE_SELF, &r);
	return (size_t)r.ru_maxrss;
}

uint64_t rk_parse_size(const char *s)
{
	char *end;
	double v;
	if (!s || !*s) return 0;
	v = strtod(s, &end);
	if (end == s || v <= 0) return 0;
	switch (toupper((unsigned char)*end)) {
	case 'K': v *= 1024.0; end++; break;
	case 'M': v *= 1048576.0; end++; break;
	case 'G': v *= 1073741824.0; end++; break;
	case 'T': v *= 1099511627776.0; end++; break;
	default: break;
	}
	if (*end == 'B' || *end == 'b') end++;
	return *end ? 0 : (uint64_t)v;
}
