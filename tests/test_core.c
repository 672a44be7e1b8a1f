/* core: the error of a failed call reaches its caller whichever thread raised it (issue 27,
 * item 3), the first of several threads wins, the main thread can wrap a message, and a
 * recovery (rk_clear_error) leaves no stale message behind. */
#include <pthread.h>
#include <omp.h>
#include "rktlcs.h"
#include "testutil.h"

static void *raise_on_thread(void *arg)
{
	rk_set_error("%s", (const char *)arg);
	return 0;
}

int main(void)
{
	/* an error set on a helper thread (pthread) is what the caller reads */
	rk_clear_error();
	pthread_t t;
	pthread_create(&t, 0, raise_on_thread, "thread: out of memory");
	pthread_join(t, 0);
	CHECK(!strcmp(rk_error(), "thread: out of memory"), "pthread's error lost: '%s'", rk_error());

	/* on OpenMP workers: the caller sees an error, and the first one stays */
	rk_clear_error();
	volatile int order = 0;
#pragma omp parallel num_threads(4)
	{
		if (omp_get_thread_num() == 2) { rk_set_error("worker 2: first"); order = 1; }
#pragma omp barrier
		if (omp_get_thread_num() == 3 && order) rk_set_error("worker 3: second");
	}
	CHECK(!strcmp(rk_error(), "worker 2: first"), "OpenMP worker's first error lost: '%s'", rk_error());

	/* the main thread wraps what a worker said */
	rk_set_error("giant.fa: %s", rk_error());
	CHECK(!strcmp(rk_error(), "giant.fa: worker 2: first"), "wrap: '%s'", rk_error());

	/* after a recovery, a later failure on a worker is named, not the stale message */
	rk_set_error("giant.fa: record 1: unexpected line after this record");
	rk_clear_error();
	CHECK(!strcmp(rk_error(), "unknown error"), "cleared: '%s'", rk_error());
	pthread_create(&t, 0, raise_on_thread, "traceback: out of memory");
	pthread_join(t, 0);
	CHECK(!strcmp(rk_error(), "traceback: out of memory"), "after a retry: '%s'", rk_error());

	/* the main thread's later errors replace the earlier ones, as before */
	rk_set_error("one");
	rk_set_error("two");
	CHECK(!strcmp(rk_error(), "two"), "main thread: '%s'", rk_error());

	printf("test_core: %s\n", tu_fail ? "FAILED" : "all passed");
	return tu_fail != 0;
}
