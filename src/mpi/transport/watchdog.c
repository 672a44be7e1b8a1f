/* The start-up watchdog (rmpi.h): MPI start-up has no time-out of its own. A rank whose
 * shared-memory set-up failed (ulimit -v, a full /dev/shm) can leave every rank of the job
 * waiting forever in MPI_Comm_split_type; the contract is that a failing rank ends the job.
 * A thread waits for rmpi_init to finish on this rank; past the limit it names the stage it
 * was stuck in and ends the process with status 2, and the launcher ends the others. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "mpi/transport/rmpi.h"

static pthread_mutex_t rmpi_wd_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t rmpi_wd_cv;
static int rmpi_wd_done, rmpi_wd_on;
static double rmpi_wd_limit;
static const char *volatile rmpi_wd_stage = "start";

static const char *rmpi_wd_who = "?";   /* the rank, read before the thread starts: getenv
                                         * races MPI_Init's setenv on another thread */
static const char *rmpi_wd_rank(void)
{
	static const char *vars[] = { "OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID", 0 };
	for (int i = 0; vars[i]; i++) {
		const char *v = getenv(vars[i]);
		if (v && *v) return v;
	}
	return "?";
}

static void *rmpi_wd_main(void *arg)
{
	(void)arg;
	struct timespec until;
	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_sec += (time_t)rmpi_wd_limit;
	until.tv_nsec += (long)((rmpi_wd_limit - (double)(time_t)rmpi_wd_limit) * 1e9);
	if (until.tv_nsec >= 1000000000L) { until.tv_sec++; until.tv_nsec -= 1000000000L; }
	pthread_mutex_lock(&rmpi_wd_mu);
	int late = 0;
	while (!rmpi_wd_done && !late) late = pthread_cond_timedwait(&rmpi_wd_cv, &rmpi_wd_mu, &until) != 0 && !rmpi_wd_done;
	pthread_mutex_unlock(&rmpi_wd_mu);
	if (!late) return 0;
	char msg[512];
	int n = snprintf(msg, sizeof msg,
	                 "[rktlcs] error: rank %s: MPI start-up did not finish within %g s (stuck in %s); ending the job "
	                 "(another rank may have failed to start; RKTLCS_START_TIMEOUT sets the limit)\n",
	                 rmpi_wd_who, rmpi_wd_limit, rmpi_wd_stage);
	ssize_t r = write(STDERR_FILENO, msg, n > 0 && n < (int)sizeof msg ? (size_t)n : strlen(msg));
	(void)r;
	_exit(2);
}

void rmpi_watch_start(double seconds)
{
	if (seconds <= 0 || rmpi_wd_on) return;
	rmpi_wd_who = rmpi_wd_rank();
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&rmpi_wd_cv, &ca);
	pthread_condattr_destroy(&ca);
	rmpi_wd_limit = seconds;
	rmpi_wd_done = 0;
	pthread_t t;
	pthread_attr_t a;
	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&a, 64 * 1024);
	/* no watchdog when no thread can be made: start-up then runs as before */
	if (pthread_create(&t, &a, rmpi_wd_main, 0) == 0) rmpi_wd_on = 1;
	pthread_attr_destroy(&a);
}

void rmpi_watch_stage(const char *stage)
{
	rmpi_wd_stage = stage;
}

void rmpi_watch_stop(void)
{
	if (!rmpi_wd_on) return;
	pthread_mutex_lock(&rmpi_wd_mu);
	rmpi_wd_done = 1;
	pthread_cond_signal(&rmpi_wd_cv);
	pthread_mutex_unlock(&rmpi_wd_mu);
	rmpi_wd_on = 0;
}
