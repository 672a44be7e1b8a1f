/* core: the error of a failed call reaches its caller whichever thread raised it (issue 27,
 * item 3), the first of several threads wins, the main thread can wrap a message, and a
 * recovery (rk_clear_error) leaves no stale message behind. The environment (env.c): setenv
 * beside a getenv on another thread, and the calls' meaning. */
#include <errno.h>
#include <pthread.h>
#include <omp.h>
#include "rktlcs.h"
#include "testutil.h"

static void *raise_on_thread(void *arg)
{
	rk_set_error("%s", (const char *)arg);
	return 0;
}

extern char **environ;
static volatile int env_stop;
static long env_seen;

/* what the driver's thread did during MPI_Init: getenv, and a walk of the whole array */
static void *env_reader(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&env_stop, __ATOMIC_ACQUIRE)) {
		const char *v = getenv("RKTLCS_ENV_T_7");
		if (v && strcmp(v, "7")) env_seen = -1000000;
		for (char **e = environ; e && *e; e++) env_seen += (*e)[0] == 'R';
	}
	return 0;
}

/* glibc's setenv moved the array by realloc and freed the old one under the reader: the ASan
 * build reports a heap-use-after-free here with it, the release build may crash */
static void test_env(void)
{
	char name[64], val[32];
	pthread_t t;
	pthread_create(&t, 0, env_reader, 0);
	for (int i = 0; i < 3000; i++) {
		snprintf(name, sizeof name, "RKTLCS_ENV_T_%d", i);
		snprintf(val, sizeof val, "%d", i);
		CHECK(setenv(name, val, 0) == 0, "setenv %s", name);
		if (i % 3 == 2) { snprintf(name, sizeof name, "RKTLCS_ENV_T_%d", i - 1); unsetenv(name); }
	}
	__atomic_store_n(&env_stop, 1, __ATOMIC_RELEASE);
	pthread_join(t, 0);
	CHECK(env_seen >= 0, "a reader saw a wrong value");
	int bad = 0;
	for (int i = 0; i < 3000; i++) {
		snprintf(name, sizeof name, "RKTLCS_ENV_T_%d", i);
		const char *v = getenv(name);
		if (i % 3 == 1 ? v != 0 : !v || atoi(v) != i) bad++;
		unsetenv(name);
	}
	CHECK(!bad, "%d of 3000 variables wrong after the adds and removals", bad);
	/* the calls' meaning, as glibc's */
	CHECK(setenv("RKTLCS_ENV_A", "1", 1) == 0 && !strcmp(getenv("RKTLCS_ENV_A"), "1"), "setenv");
	CHECK(setenv("RKTLCS_ENV_A", "2", 0) == 0 && !strcmp(getenv("RKTLCS_ENV_A"), "1"), "setenv without overwrite keeps");
	CHECK(setenv("RKTLCS_ENV_A", "3", 1) == 0 && !strcmp(getenv("RKTLCS_ENV_A"), "3"), "setenv overwrites");
	static char pe[] = "RKTLCS_ENV_A=4", pn[] = "RKTLCS_ENV_A";
	CHECK(putenv(pe) == 0 && getenv("RKTLCS_ENV_A") == pe + 13, "putenv keeps the string itself");
	CHECK(putenv(pn) == 0 && !getenv("RKTLCS_ENV_A"), "putenv of a name removes it");
	errno = 0;
	CHECK(setenv("A=B", "1", 1) == -1 && errno == EINVAL && setenv("", "1", 1) == -1 && unsetenv("A=B") == -1, "bad names: EINVAL");
	CHECK(setenv("RKTLCS_ENV_B", "", 1) == 0 && getenv("RKTLCS_ENV_B") && !*getenv("RKTLCS_ENV_B") && unsetenv("RKTLCS_ENV_B") == 0 &&
	      !getenv("RKTLCS_ENV_B"), "an empty value, then removed");
}

int main(void)
{
	test_env();
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
