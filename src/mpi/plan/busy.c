/* The CPU threads of a rank (rmpi_threads, rmpi_threads_alone, rmpi_cpus; below, moved from
 * src/mpi/comm.c), how many of them one long pair's wavefront gets on a host whose cores other
 * work keeps busy (rmpi_threads_free; mpi/plan/plan.h), and the lines that say so: one for each
 * group of ranks that see the same, so that a host other than rank 0's, or a cpuset other than
 * its, is said too. */
#define _GNU_SOURCE   /* sched_getaffinity */
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>
#include <omp.h>
#include "mpi/plan/plan.h"

/* What a rank found, for rank 0's lines (no padding: allgathered as bytes) */
typedef struct {
	int32_t cpu, f, threads, alone_free, others, probed, online, cpus;
	double share, ms;
} busy_view_t;

/* The threads each of `ranks` processes on this host (this one among them) may run a long
 * pair's wavefront on, `others` threads of other processes being runnable (rmpi_host_others):
 * `threads` where all fit, else the free cores shared among them. Where this process may run on
 * every CPU, the others' count is the answer; under a cpuset or mpirun's binding they may run
 * on CPUs it does not have, and a probe of its threads (rmpi_cpu_free) decides (*probed). */
static int threads_left(int others, int ranks, int threads, int *probed)
{
	const long online = sysconf(_SC_NPROCESSORS_ONLN);
	*probed = 0;
	if (others <= 0 || online < 1 || others + (long)ranks * threads <= online) return threads;
	if (rmpi_cpus() < online) {
		*probed = 1;
		return rmpi_cpu_free(threads, RMPI_PROBE_MS, rmpi_cpu_share(threads, RMPI_PROBE_MS, NULL));
	}
	const long f = (online - others) / ranks;
	return f >= threads ? threads : f < 1 ? 1 : (int)f;
}

/* A long pair under the probe's floor (a 10 kb pair's wavefront takes 9 ms on one thread, the
 * probes 20-60 ms): the host's runnable threads, looked at in under 1 ms, say how many cores
 * are free. Busy processes collapse even a short pair's wavefront (the CI VM, 2 cores beside 4
 * busy processes: a 100 kb lev pair 0.85 s on 2 threads, 0.034 s on 1). `others`: what was
 * seen. */
static int threads_look(int threads, int *others, int *probed)
{
	*others = rmpi_host_others(NULL, 0);
	return threads_left(*others, 1, threads, probed);
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	for (size_t i = 0; i < n; i++) h = (h ^ ((const unsigned char *)p)[i]) * 1099511628211ull;
	return h;
}

/* Which kernel and pid namespace this process runs in: its boot's id (one a machine and boot,
 * where cloned nodes share a host name) and its pid namespace (the pids it can read), else the
 * host name */
static uint64_t host_key(void)
{
	char buf[256] = "";
	FILE *fp = fopen("/proc/sys/kernel/random/boot_id", "r");
	if (!fp || !fgets(buf, sizeof buf, fp)) gethostname(buf, sizeof buf - 1);
	if (fp) fclose(fp);
	uint64_t h = fnv(1469598103934665603ull, buf, strlen(buf));   /* FNV-1a */
	struct stat ns;
	if (stat("/proc/self/ns/pid", &ns) == 0) h = (h ^ (uint64_t)ns.st_ino) * 1099511628211ull;
	return h;
}

/* the CPUs this process may run on, as a key (0: every CPU, or not known) */
static uint64_t cpus_key(void)
{
	cpu_set_t set;
	CPU_ZERO(&set);   /* hashed whole: the part the kernel does not write is zero */
	if (sched_getaffinity(0, sizeof set, &set) != 0 || CPU_COUNT(&set) >= sysconf(_SC_NPROCESSORS_ONLN)) return 0;
	return fnv(1469598103934665603ull, &set, sizeof set);
}

/* This job's other ranks on this host: their pids in pids[0 .. return) (w->size of room; NULL:
 * not kept), *cpu_ranks the host's ranks with a long pair for the CPU (`cpu`), this one
 * included, and *same those of them that may run on the same CPUs as this one (a cpuset or
 * mpirun's binding; all of them where none binds). The host by host_key. Collective. */
static int host_ranks(const rmpi_t *w, int cpu, long *pids, int *cpu_ranks, int *same)
{
	const int64_t me[4] = { (int64_t)host_key(), (int64_t)getpid(), cpu, (int64_t)cpus_key() };
	int64_t *all = malloc(sizeof *all * 4 * w->size);
	*cpu_ranks = *same = 0;
	/* every rank calls the allgather or none does */
	if (rmpi_any(w, !all)) { free(all); return 0; }
	rmpi_allgather(w, me, sizeof me, all);
	int n = 0;
	for (int r = 0; r < w->size; r++) {
		const int64_t *x = all + 4 * r;
		if (x[0] != me[0]) continue;
		*cpu_ranks += x[2] != 0;
		*same += x[2] != 0 && x[3] == me[3];
		if (r != w->rank && pids) pids[n++] = (long)x[1];
	}
	free(all);
	return n;
}

/* threads_look for a rank: the host's cores left free by other processes, shared among this
 * job's ranks on the host that compute a long pair on the CPU; be->alone_free those a rank
 * computing a pair alone (the split's rmpi_threads_alone) may use. Collective. */
static int threads_ranks(const rmpi_t *w, int cpu, int threads, int *others, int *probed, rmpi_be_t *be)
{
	long *pids = malloc(sizeof *pids * w->size);
	int cpu_ranks = 0, same = 0;
	const int n = host_ranks(w, cpu && pids, pids, &cpu_ranks, &same);
	*others = -1;
	*probed = 0;
	if (!cpu || !pids || cpu_ranks < 1) { free(pids); return threads; }
	const long online = sysconf(_SC_NPROCESSORS_ONLN);
	const int o = *others = rmpi_host_others(pids, n);
	free(pids);
	if (o > 0 && online >= 1 && rmpi_cpus() >= online) be->alone_free = online - o > 1 ? (int)(online - o) : 1;
	const int f = threads_left(o, cpu_ranks, threads, probed);
	/* under a cpuset the host's count says nothing of this rank's CPUs, its probe does: the
	 * `same` ranks on these CPUs probed at once and each found f of its threads free, so about
	 * same x f cores are free for one of them alone (where all of its threads were free, the
	 * probe saw no further than them: no cap) */
	if (*probed && f < threads) be->alone_free = same * f > 1 ? same * f : 1;
	return f;
}

/* "0-3, 6": the ranks r (of n) with in[r] */
static void ranks_str(const int *in, int n, char *buf, size_t size)
{
	size_t o = 0;
	buf[0] = 0;
	for (int r = 0; r < n; r++) {
		if (!in[r] || (r > 0 && in[r - 1])) continue;
		if (o + 24 + 6 >= size) {   /* room for one more range and the mark */
			snprintf(buf + o, size - o, ", ...");
			return;
		}
		int e = r;
		while (e + 1 < n && in[e + 1]) e++;
		o += (size_t)snprintf(buf + o, size - o, "%s%d", o ? ", " : "", r);
		if (e > r) o += (size_t)snprintf(buf + o, size - o, "-%d", e);
	}
}

static void view_say(const busy_view_t *v, int nproc, const char *who)
{
	char seen[192], alone_s[64] = "";
	if (nproc == 1 && v->share > 0) snprintf(seen, sizeof seen, "%d threads given %.2f of the wall", v->threads, v->share);
	else snprintf(seen, sizeof seen, "%d other thread%s runnable on %d CPUs%s", v->others, v->others == 1 ? "" : "s", v->online,
	              nproc > 1 ? " besides this job's ranks" : "");
	if (v->probed) {
		const size_t l = strlen(seen);
		snprintf(seen + l, sizeof seen - l, "; a probe on %s %d CPUs", nproc > 1 ? "a rank's" : "its", v->cpus);
	}
	/* the cap, said before the split's plan knows whether any rank computes a pair alone */
	if (v->alone_free > 0) snprintf(alone_s, sizeof alone_s, ", at most %d for a rank computing a pair alone", v->alone_free);
	rk_info("%sthe host's cores are busy (%s): the long pair on %d thread%s%s%s (%.1f ms to find); --threads sets them", who, seen,
	        v->f, v->f == 1 ? "" : "s", nproc > 1 ? " a rank" : "", alone_s, v->ms);
}

static int view_same(const busy_view_t *a, const busy_view_t *b)
{
	/* not the host: hosts that found the same are one line (the others' count is the first's);
	 * not the cap of a rank alone, rank 0's only: it is said on rank 0's group's line */
	return a->cpu == b->cpu && a->f == b->f && a->threads == b->threads && a->probed == b->probed && a->cpus == b->cpus;
}

/* Rank 0 says what each group of ranks that found the same found: one line where all of them
 * did, else one a group ("ranks 2-3: ..."); none for those whose cores were free. Collective. */
static void views_say(const rmpi_t *w, const busy_view_t *mine)
{
	if (w->size == 1) {
		if (mine->cpu) view_say(mine, 1, "");
		return;
	}
	busy_view_t *all = malloc(sizeof *all * w->size);
	int *in = calloc((size_t)w->size, sizeof *in), *done = calloc((size_t)w->size, sizeof *done);
	if (rmpi_any(w, !all || !in || !done)) { free(all); free(in); free(done); return; }
	rmpi_allgather(w, mine, sizeof *mine, all);
	int differ = 0;
	for (int r = 1; r < w->size; r++) differ |= all[r].cpu != all[0].cpu || (all[r].cpu && !view_same(&all[r], &all[0]));
	for (int r = 0; r < w->size && w->rank == 0; r++) {
		if (done[r] || !all[r].cpu) continue;
		busy_view_t g = all[r];
		for (int s = 0; s < w->size; s++) {   /* every in[] anew: an earlier group's ranks are not this one's */
			in[s] = s >= r && !done[s] && all[s].cpu && view_same(&all[r], &all[s]);
			if (!in[s]) continue;
			done[s] = 1;
			if (all[s].ms > g.ms) g.ms = all[s].ms;
		}
		if (g.f >= g.threads && !(g.alone_free > 0)) continue;   /* these found their cores free */
		char list[128], who[160] = "";
		ranks_str(in, w->size, list, sizeof list);
		if (differ) snprintf(who, sizeof who, "rank%s %s: ", strpbrk(list, ",-") ? "s" : "", list);
		view_say(&g, w->size, who);
	}
	free(all);
	free(in);
	free(done);
}

int rmpi_threads_free(const rmpi_t *w, const rk_common_t *c, const rmpi_cost_t *job, rmpi_be_t *be, int threads)
{
	const char *env = getenv("RKTLCS_PROBE");
	/* the kind is the same on every rank (the reads are): the ranks' look below is collective.
	 * What the user set may not be (OMP_NUM_THREADS exported on one node, not passed by
	 * mpirun to the others): such a rank takes part as one off the CPU */
	if (job->kind != RMPI_W_DP_LONG) return threads;
	const int keep = c->threads_given || getenv("OMP_NUM_THREADS") || (env && *env == '0');
	if (keep && w->size == 1) return threads;
	const int cpu = !be->use_gpu && !keep;
	const double t0 = rk_realtime();
	int f = threads, others = -1, probed = 0;
	if (w->size > 1) f = threads_ranks(w, cpu, threads, &others, &probed, be);
	else if (cpu && threads > 1 && !(rmpi_backend_share_cpu(w, job, be) > 0)) f = threads_look(threads, &others, &probed);
	if (w->size == 1 && cpu && threads > 1 && be->cpu_share > 0) f = rmpi_cpu_free(threads, RMPI_PROBE_MS, be->cpu_share);
	const int alone = rmpi_threads_alone(w, c), cut = be->alone_free > 0 && be->alone_free < alone;
	const double ms = (rk_realtime() - t0) * 1e3;
	if (cpu) {
		char seen_o[48] = "";  /* the host's count, where it was read (not where a probe timed the share) */
		if (others >= 0) snprintf(seen_o, sizeof seen_o, "%d other threads runnable, ", others);
		rk_debug("rank %d: %sshare %.2f: %d of %d threads free (%.1f ms to find)", w->rank, seen_o, be->cpu_share, f, threads, ms);
	}
	if (w->size == 1 && (!cpu || f >= threads)) return threads;
	/* the cap is said where it applies: only rank 0 computes a pair alone (split_pair.c) */
	const busy_view_t v = { cpu, f < threads ? f : threads, threads, w->rank == 0 && cut ? be->alone_free : 0, others, probed,
	                        (int32_t)sysconf(_SC_NPROCESSORS_ONLN), rmpi_cpus(), be->cpu_share, ms };
	views_say(w, &v);
	return cpu && f < threads ? f : threads;
}

int rmpi_threads_alone(const rmpi_t *w, const rk_common_t *c)
{
	if (c->threads_alone > 0) return c->threads_alone;
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	/* threads set: rmpi_threads's value, without its warning (it gives that once) */
	if (c->threads > 0) return cores > 0 && c->threads > cores ? (int)cores : c->threads;
	const int t = rmpi_threads(w, c);
	if (getenv("OMP_NUM_THREADS") || w->local_size <= 1) return t;
	/* the CPUs this process may run on: mpirun binds a rank to one core at np <= 2 (its
	 * threads would share it) and to a socket above, srun to its task's CPUs */
	const int cpus = rmpi_cpus();
	return cpus > t ? cpus : t;
}

int rmpi_cpus(void)
{
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0 && (cores <= 0 || CPU_COUNT(&set) < cores)) cores = CPU_COUNT(&set);
	return cores > 0 ? (int)cores : 1;
}

int rmpi_unbind_default(int threads)
{
	static const char *const asked[] = { "OMPI_MCA_hwloc_base_binding_policy", "OMPI_MCA_rmaps_base_mapping_policy",
		                                 "OMPI_MCA_rmaps_base_cpus_per_rank", "OMP_PROC_BIND", "OMP_PLACES", "GOMP_CPU_AFFINITY", 0 };
	if (!getenv("OMPI_COMM_WORLD_SIZE")) return 0;   /* srun's task CPUs, a cpuset, taskset: the user's */
	for (int i = 0; asked[i]; i++)
		if (getenv(asked[i])) return 0;
	const long online = sysconf(_SC_NPROCESSORS_ONLN);
	const int had = rmpi_cpus(), ls = rmpi_local_size_hint();
	if (online < 2 || had >= threads || had >= online || (ls > 0 && ls > online)) return 0;
	cpu_set_t set;
	CPU_ZERO(&set);
	for (long c = 0; c < online && c < CPU_SETSIZE; c++) CPU_SET((int)c, &set);
	/* the kernel keeps the mask within the process's cpuset */
	if (sched_setaffinity(0, sizeof set, &set) != 0) return 0;
	const int now = rmpi_cpus();
	return now > had ? now : 0;
}

int rmpi_threads(const rmpi_t *w, const rk_common_t *c)
{
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	if (c->threads > 0) {
		/* more threads than CPUs only costs memory (stacks), and libgomp ends the process
		 * when it cannot create them */
		if (cores > 0 && c->threads > cores) {
			if (w->rank == 0) rk_warn("--threads %d: this machine has %ld CPUs; using %ld", c->threads, cores, cores);
			return (int)cores;
		}
		return c->threads;
	}
	if (getenv("OMP_NUM_THREADS")) return omp_get_max_threads();
	int t = (int)(cores / (w->local_size > 0 ? w->local_size : 1));
	return t > 0 ? t : 1;
}
