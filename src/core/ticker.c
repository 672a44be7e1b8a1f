/* The progress ticker (rktlcs.h): a thread that shows a long item's progress while the loop
 * that owns the rk_progress_t waits for the item to end. */
#include <stdatomic.h>
#include <pthread.h>
#include <time.h>
#include "rktlcs.h"

static _Atomic long long rk_live;   /* work the kernels added since the base was set */
static _Atomic long long rk_live_all;   /* and since the process started */
static pthread_mutex_t rk_tick_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t rk_tick_cv = PTHREAD_COND_INITIALIZER;
static pthread_t rk_tick_th;
static int rk_tick_on, rk_tick_stop_now;

void rk_live_add(double work)
{
	atomic_fetch_add_explicit(&rk_live, (long long)work, memory_order_relaxed);
	atomic_fetch_add_explicit(&rk_live_all, (long long)work, memory_order_relaxed);
}

double rk_live_total(void)
{
	return (double)atomic_load(&rk_live_all);
}

static void *rk_tick_main(void *arg)
{
	rk_progress_t *p = arg;
	pthread_mutex_lock(&rk_tick_mu);
	while (!rk_tick_stop_now) {
		/* four times a second: rk_progress keeps to its own pace (a line a minute in a log) */
		struct timespec until;
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += 250000000L;
		if (until.tv_nsec >= 1000000000L) { until.tv_sec++; until.tv_nsec -= 1000000000L; }
		pthread_cond_timedwait(&rk_tick_cv, &rk_tick_mu, &until);
		if (rk_tick_stop_now) break;
		double done = p->base + (double)atomic_load_explicit(&rk_live, memory_order_relaxed);
		pthread_mutex_unlock(&rk_tick_mu);
		rk_progress(p, done < p->total ? done : p->total);
		pthread_mutex_lock(&rk_tick_mu);
	}
	pthread_mutex_unlock(&rk_tick_mu);
	return 0;
}

void rk_progress_tick_start(rk_progress_t *p)
{
	if (rk_tick_on || rk_get_log_level() < RK_LOG_INFO) return;
	pthread_mutex_lock(&rk_tick_mu);
	p->base = 0;
	atomic_store(&rk_live, 0);
	rk_tick_stop_now = 0;
	pthread_mutex_unlock(&rk_tick_mu);
	/* no thread: no ticks, the loop's own progress still shows */
	rk_tick_on = pthread_create(&rk_tick_th, 0, rk_tick_main, p) == 0;
}

void rk_progress_tick_base(rk_progress_t *p, double base)
{
	pthread_mutex_lock(&rk_tick_mu);
	p->base = base;
	atomic_store(&rk_live, 0);
	pthread_mutex_unlock(&rk_tick_mu);
}

void rk_progress_tick_stop(void)
{
	if (!rk_tick_on) return;
	pthread_mutex_lock(&rk_tick_mu);
	rk_tick_stop_now = 1;
	pthread_cond_signal(&rk_tick_cv);
	pthread_mutex_unlock(&rk_tick_mu);
	pthread_join(rk_tick_th, 0);
	rk_tick_on = 0;
}
