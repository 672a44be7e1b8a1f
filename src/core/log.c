/* Leveled logging and progress lines on stderr. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>
#include <pthread.h>
#include "rktlcs.h"

static int rk_log_level = RK_LOG_INFO;

void rk_set_log_level(int level) { rk_log_level = level; }
int rk_get_log_level(void) { return rk_log_level; }

static int rk_progress_open;  /* a terminal progress line is on screen, without its newline */

/* error lines held for the job's one report (rk_log_hold) */
static pthread_mutex_t rk_hold_mu = PTHREAD_MUTEX_INITIALIZER;
static int rk_hold;
static char *rk_held;
static size_t rk_held_l, rk_held_m;

static void rk_hold_add(const char *line)
{
	size_t n = strlen(line);
	pthread_mutex_lock(&rk_hold_mu);
	if (rk_held_l + n + 1 > rk_held_m && rk_held_l + n < 64 * 1024) {
		size_t m = (rk_held_l + n + 1) * 2;
		char *t = realloc(rk_held, m);
		if (t) { rk_held = t; rk_held_m = m; }
	}
	if (rk_held_l + n + 1 <= rk_held_m) {
		memcpy(rk_held + rk_held_l, line, n + 1);
		rk_held_l += n;
	} else fputs(line, stderr);  /* never lost: said at once when it cannot be held */
	pthread_mutex_unlock(&rk_hold_mu);
}

void rk_log_hold(int on)
{
	pthread_mutex_lock(&rk_hold_mu);
	rk_hold = on;
	if (!on && rk_held_l) { fputs(rk_held, stderr); rk_held_l = 0; }
	pthread_mutex_unlock(&rk_hold_mu);
}

const char *rk_log_held(size_t *n)
{
	*n = rk_held_l;
	return rk_held_l ? rk_held : "";
}

void rk_log_held_clear(void)
{
	pthread_mutex_lock(&rk_hold_mu);
	rk_held_l = 0;
	if (rk_held) rk_held[0] = 0;
	pthread_mutex_unlock(&rk_hold_mu);
}

void rk_log(int level, const char *fmt, ...)
{
	if (level > rk_log_level) return;
	char raw[1024], buf[4096];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(raw, sizeof raw, fmt, ap);
	va_end(ap);
	/* names and paths come from the input: a control byte (ESC) must not reach the terminal */
	size_t o = 0;
	for (const unsigned char *p = (const unsigned char *)raw; *p && o + 5 < sizeof buf; p++) {
		if (*p < 0x20 || *p == 0x7f) o += (size_t)snprintf(buf + o, sizeof buf - o, "\\x%02x", *p);
		else buf[o++] = (char)*p;
	}
	buf[o] = 0;
	const char *tag = level <= RK_LOG_ERROR ? "error: " : level <= RK_LOG_WARNING ? "warning: " : level >= RK_LOG_DEBUG ? "debug: " : "";
	if (level <= RK_LOG_ERROR && rk_hold) {
		char line[4200];
		snprintf(line, sizeof line, "[rktlcs] %s%s\n", tag, buf);
		rk_hold_add(line);
		return;
	}
	/* one fprintf per line so lines from several ranks or threads do not interleave */
	fprintf(stderr, "%s[rktlcs] %s%s\n", rk_progress_open ? "\n" : "", tag, buf);
	rk_progress_open = 0;
}

void rk_progress_start(rk_progress_t *p, const char *what, double total)
{
	memset(p, 0, sizeof *p);
	p->what = what;
	p->total = total > 0 ? total : 1;
	p->t0 = p->last = rk_realtime();
	p->tty = isatty(STDERR_FILENO);
}

static void rk_progress_line(rk_progress_t *p, double done, double now)
{
	double f = done / p->total, dt = now - p->t0;
	char eta[48] = "";
	if (p->tty) {
		if (f > 0.01 && f < 1) snprintf(eta, sizeof eta, ", ETA %.0f s", dt / f - dt);
		fprintf(stderr, "\r[rktlcs] %s: %5.1f%%, %.0f s%s\033[K", p->what, 100 * f, dt, eta);
		rk_progress_open = 1;
	} else {
		/* the first line of a batch log comes early, at under 1% done: its ETA is the pace so far */
		if (f > 0 && f < 1) snprintf(eta, sizeof eta, ", ETA %.0f s", dt / f - dt);
		else if (f < 1) snprintf(eta, sizeof eta, ", ETA unknown");
		fprintf(stderr, "[rktlcs] %s: %.1f%%, %.1f s%s\n", p->what, 100 * f, dt, eta);
	}
	p->shown = 1;
}

static pthread_mutex_t rk_progress_mu = PTHREAD_MUTEX_INITIALIZER;

void rk_progress(rk_progress_t *p, double done)
{
	if (rk_log_level < RK_LOG_INFO) return;
	pthread_mutex_lock(&rk_progress_mu);
	if (done < p->best) done = p->best;
	p->best = done;
	double now = rk_realtime();
	if (p->tty) {
		/* nothing for short runs; then at most twice a second */
		if (now - p->t0 < 2.0 || now - p->last < 0.5) { pthread_mutex_unlock(&rk_progress_mu); return; }
	} else {
		/* batch logs: an ETA early, then a line a minute at most */
		if (now - p->t0 < rk_tune.progress_first || (p->shown && now - p->last < rk_tune.progress_every)) {
			pthread_mutex_unlock(&rk_progress_mu);
			return;
		}
	}
	p->last = now;
	rk_progress_line(p, done, now);
	pthread_mutex_unlock(&rk_progress_mu);
}

void rk_progress_end(rk_progress_t *p)
{
	rk_progress_tick_stop();
	if (p->tty && p->shown && rk_progress_open) {
		rk_progress_line(p, p->total, rk_realtime());
		fputc('\n', stderr);
		rk_progress_open = 0;
	}
}
