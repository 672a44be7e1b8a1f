/* MPI transport: start-up, status agreement, broadcast and rank-ordered gather (rmpi.h; moved
 * from src/mpi/comm.c, its rmpi_threads, rmpi_threads_alone and rmpi_cpus to plan/busy.c). */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "mpi/transport/rmpi.h"

/* Sanitizer builds: a rank's leaks are looked for before MPI_Finalize, while Open MPI still
 * holds its memory: its losses at exit were thousands of blocks, each matched against
 * tests/lsan.supp by rereading the memory map, most of every rank's exit under ASan. What a
 * rank loses after this point is only checked in a plain process (the same code). */
#if defined(__SANITIZE_ADDRESS__)
#define RMPI_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RMPI_ASAN 1
#endif
#endif
#ifdef RMPI_ASAN
#include <sanitizer/lsan_interface.h>
#define RMPI_LEAK_CHECK() __lsan_do_leak_check()
/* What Open MPI allocates in MPI_Init and loses is its own: not a leak of ours. Ignored this
 * way, a rank keeps the fast unwinder, which cannot name those stacks for tests/lsan.supp
 * (src/main.c); the slow one, at every malloc, was most of an ASan rank's start. */
#define RMPI_LEAKS_OFF() __lsan_disable()
#define RMPI_LEAKS_ON() __lsan_enable()
#else
#define RMPI_LEAK_CHECK() ((void)0)
#define RMPI_LEAKS_OFF() ((void)0)
#define RMPI_LEAKS_ON() ((void)0)
#endif

static int hint_var(const char *const *vars, long lo);

/* A launcher's world of one rank (mpirun -np 1): nothing to talk to, so no MPI_Init, whose
 * start and end were most of a small job's wall under mpirun. srun's tasks, which each see a
 * world of one without an MPI plugin, keep MPI so rmpi_check_srun can name the mistake. */
static int rmpi_world_of_one(void)
{
	static const char *const step[] = { "SLURM_STEP_NUM_TASKS", 0 }, *const world[] = { "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", 0 };
	return hint_var(step, 1) <= 1 && hint_var(world, 1) == 1;
}

/* Launched by mpirun/srun? Without a process manager we run as one plain process and
 * skip MPI_Init, whose singleton start-up costs ~0.3 s. */
static int rmpi_launched(void)
{
	static const char *vars[] = { "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMI_RANK", "PMIX_RANK", "MPI_LOCALNRANKS", 0 };
	if (rk_tune.force_mpi) return 1;
	for (int i = 0; vars[i]; i++)
		if (getenv(vars[i])) return !rmpi_world_of_one();
	return 0;
}

/* srun without an MPI plugin (or with one MPI does not speak) starts N copies that each
 * see one rank: each would run the whole job and write the same output. */
static rk_status_t rmpi_check_srun(rmpi_t *w)
{
	const char *v = getenv("SLURM_STEP_NUM_TASKS");
	if (!v || atoi(v) <= 1 || w->size > 1) return RK_OK;
	rk_set_error("srun started %s tasks but MPI sees only 1: each would run the whole job alone. "
	             "Use srun --mpi=pmix (see srun --mpi=list), or mpirun inside the allocation", v);
	if (w->mpi) MPI_Finalize();
	w->mpi = 0;
	return RK_EINPUT;
}

int rmpi_is_launched(void) { return rmpi_launched(); }

/* The first of the launcher's variables that holds a number of at least lo; -1 if none. */
static int hint_var(const char *const *vars, long lo)
{
	for (int i = 0; vars[i]; i++) {
		const char *v = getenv(vars[i]);
		char *end;
		long r = v ? strtol(v, &end, 10) : -1;
		if (v && *v && !*end && r >= lo && r < 1 << 20) return (int)r;
	}
	return -1;
}

int rmpi_local_rank_hint(void)
{
	static const char *const vars[] = { "OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID", "PMI_LOCAL_RANK", 0 };
	return rmpi_launched() ? hint_var(vars, 0) : 0;
}

int rmpi_rank_hint(void)
{
	static const char *const vars[] = { "OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID", 0 };
	return rmpi_launched() ? hint_var(vars, 0) : 0;
}

int rmpi_size_hint(void)
{
	static const char *const vars[] = { "OMPI_COMM_WORLD_SIZE", "PMIX_SIZE", "PMI_SIZE", "SLURM_NTASKS", 0 };
	return rmpi_launched() ? hint_var(vars, 1) : 1;
}

int rmpi_local_size_hint(void)
{
	static const char *const vars[] = { "OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS", "PMI_LOCAL_SIZE", 0 };
	return rmpi_launched() ? hint_var(vars, 1) : 1;
}

/* Whether the launcher put every rank on this node: mpirun's sizes, else (a direct srun
 * launch) the step's nodes. Unknown: no. */
static int rmpi_one_node_hint(void)
{
	static const char *const world[] = { "OMPI_COMM_WORLD_SIZE", 0 }, *const local[] = { "OMPI_COMM_WORLD_LOCAL_SIZE", 0 },
	                        *const nodes[] = { "SLURM_STEP_NUM_NODES", 0 };
	const int n = hint_var(world, 1);
	if (n > 0) return hint_var(local, 1) == n;
	return hint_var(nodes, 1) == 1;
}

rk_status_t rmpi_init(rmpi_t *w, int *argc, char ***argv)
{
	int provided;
	memset(w, 0, sizeof *w);
	w->size = w->local_size = w->nodes = 1;
	if (!rmpi_launched()) {
		if (rmpi_world_of_one()) rk_debug("mpi: a launcher's world of one rank: run as one plain process, without MPI");
		return rmpi_check_srun(w);
	}
	w->mpi = 1;
	/* Open MPI finds the node's topology with hwloc, whose OpenCL plugin (Debian's
	 * libhwloc-plugins) starts every GPU of the node to list it: `mpirun -np 1 true` took 1.07-
	 * 1.28 s on 4 H100, 0.09 s without the GPU plugins. MPI needs no GPU in its topology; a
	 * user's own HWLOC_COMPONENTS is kept. mpirun's own discovery happens before this process
	 * runs: README, "GPU nodes". Ranks all on one node need no PCI devices either (between
	 * nodes, the network cards' places do): reading every device's PCI configuration through
	 * sysfs was a sixth of a small job's start on a virtual machine. */
	setenv("HWLOC_COMPONENTS", rmpi_one_node_hint() ? RMPI_HWLOC_OFF RMPI_HWLOC_IO_OFF : RMPI_HWLOC_OFF, 0);
	/* Open MPI tries its matching transports (pml cm: libfabric, PSM, PSM2) before the
	 * ordinary one (ob1: shared memory on a node, TCP or verbs between nodes): their probing
	 * was 0.19 s of MPI_Init's 0.23 s on a 2-core VM with no fabric (Debian's Open MPI
	 * 4.1), 0.03 s with ob1 named. Ranks all on one node talk through shared memory anyway;
	 * between nodes the fabric's transport is kept. A user's own OMPI_MCA_pml is kept. */
	if (rmpi_one_node_hint()) setenv("OMPI_MCA_pml", "ob1", 0);
	rmpi_watch_start(rk_tune.start_timeout);
	rmpi_watch_stage("MPI_Init");
	RMPI_LEAKS_OFF();
	int init_rc = MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
	RMPI_LEAKS_ON();
	if (init_rc != MPI_SUCCESS) {
		rmpi_watch_stop();
		rk_set_error("MPI initialisation failed");
		return RK_ERES;
	}
	w->comm = MPI_COMM_WORLD;
	/* errors in MPI calls come back as codes so every rank can agree and exit cleanly */
	MPI_Comm_set_errhandler(w->comm, MPI_ERRORS_RETURN);
	MPI_Comm_rank(w->comm, &w->rank);
	MPI_Comm_size(w->comm, &w->size);
	MPI_Comm local;
	rmpi_watch_stage("MPI_Comm_split_type (the node's shared-memory set-up)");
	MPI_Comm_split_type(w->comm, MPI_COMM_TYPE_SHARED, w->rank, MPI_INFO_NULL, &local);
	MPI_Comm_rank(local, &w->local_rank);
	MPI_Comm_size(local, &w->local_size);
	MPI_Comm_free(&local);
	/* the nodes as Open MPI's locality sees them: what decides the shared-memory and inter-node
	 * paths, and what tests/nodes.sh checks when it runs two "nodes" on one machine */
	int first = w->local_rank == 0;
	if (MPI_Allreduce(&first, &w->nodes, 1, MPI_INT, MPI_SUM, w->comm) != MPI_SUCCESS) w->nodes = 0;
	if (w->rank == 0)
		rk_debug("mpi: %d ranks on %d node(s), %d on rank 0's", w->size, w->nodes, w->local_size);
	/* the first agreement: every rank has started */
	rmpi_watch_stage("the first agreement of all ranks");
	rmpi_agree(w, RK_OK);
	rmpi_watch_stop();
	return rmpi_check_srun(w);
}

/* The reads' symbols held once per node: windows made by bcast_reads, freed here (every rank
 * reaches it; a rank that freed its reads earlier must not wait for the others). */
#define RMPI_MAX_SHM 8
static rmpi_shm_t rmpi_shms[RMPI_MAX_SHM];
static int rmpi_n_shm;

void rmpi_finalize(rmpi_t *w)
{
	for (int i = 0; w->mpi && i < rmpi_n_shm; i++) rmpi_shm_free(&rmpi_shms[i]);
	rmpi_n_shm = 0;
	if (!w->mpi) return;
#ifdef RMPI_ASAN
	/* tests/mpi.sh: a block this rank loses must still be reported */
	const char *lk = getenv("RKTLCS_TEST_LEAK");
	static void *volatile rmpi_lost;
	if (lk && atoi(lk) == w->rank && (rmpi_lost = malloc(4242)) != 0) rmpi_lost = 0;
#endif
	RMPI_LEAK_CHECK();
	MPI_Finalize();
}

/* Ending the job at once: what this rank holds is said now, not at an agreement. */
static void rmpi_abort(const rmpi_t *w)
{
	rk_log_hold(0);
	MPI_Abort(w->comm, 2);
}

/* A failed collective leaves the ranks out of step: nothing to agree on any more. */
static void rmpi_die(const rmpi_t *w, const char *what)
{
	rk_log_hold(0);
	rk_err("MPI communication failed (%s) on rank %d", what, w->rank);
	MPI_Abort(w->comm, 2);
}

/* Rank 0 prints each different held line once, in rank order, so that an error every rank
 * meets (no CUDA, a bad option) is one line per job, and one that a single rank meets is
 * still said. The barrier keeps the ranks from exiting, and mpirun from ending rank 0,
 * before it has written them. */
void rmpi_say_errors(const rmpi_t *w)
{
	if (!w->mpi || w->size < 2) { rk_log_hold(0); return; }
	size_t n;
	const char *mine = rk_log_held(&n);
	int len = (int)n, *lens = 0, *at = 0, total = 0, ok = 1;
	char *all = 0;
	if (w->rank == 0) {
		lens = malloc(sizeof(int) * (size_t)w->size);
		at = malloc(sizeof(int) * (size_t)w->size);
		ok = lens && at;
	}
	if (MPI_Gather(&len, 1, MPI_INT, ok ? lens : &len, 1, MPI_INT, 0, w->comm) != MPI_SUCCESS) rmpi_die(w, "errors");
	if (w->rank == 0 && ok) {
		for (int r = 0; r < w->size; r++) { at[r] = total; total += lens[r]; }
		ok = (all = malloc((size_t)total + 1)) != 0;
	}
	if (MPI_Bcast(&ok, 1, MPI_INT, 0, w->comm) != MPI_SUCCESS) rmpi_die(w, "errors");
	if (!ok) {  /* no room to gather: each rank says its own */
		rk_log_hold(0);
		rk_log_hold(1);
	}
	else if (MPI_Gatherv(mine, len, MPI_CHAR, all, lens, at, MPI_CHAR, 0, w->comm) != MPI_SUCCESS) rmpi_die(w, "errors");
	else if (w->rank == 0) {
		all[total] = 0;
		for (char *p = all, *e; *p; p = e) {
			e = strchr(p, '\n');
			e = e ? e + 1 : p + strlen(p);
			size_t l = (size_t)(e - p);
			int seen = 0;
			for (char *q = all; q < p && !seen; q = strchr(q, '\n') + 1)
				seen = strncmp(q, p, l) == 0;  /* l counts p's newline: whole lines */
			if (!seen) fwrite(p, 1, l, stderr);
		}
		fflush(stderr);
	}
	rk_log_held_clear();
	free(lens); free(at); free(all);
	if (MPI_Barrier(w->comm) != MPI_SUCCESS) rmpi_die(w, "errors");
}

rk_status_t rmpi_agree(const rmpi_t *w, rk_status_t local)
{
	int in = (int)local, out = 0;
	if (!w->mpi) return local;
	if (MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_MAX, w->comm) != MPI_SUCCESS) rmpi_die(w, "agree");
	if (out != RK_OK) { rio_cleanup_quiet(); rmpi_say_errors(w); }
	return (rk_status_t)out;
}

rk_status_t rmpi_sub(const rmpi_t *w, int n, rmpi_t *sub)
{
	return rmpi_sub_color(w, w->rank < n ? 0 : -1, sub);
}

rk_status_t rmpi_sub_color(const rmpi_t *w, int color, rmpi_t *sub)
{
	*sub = *w;
	if (!w->mpi) return RK_OK;
	MPI_Comm c = MPI_COMM_NULL;
	if (MPI_Comm_split(w->comm, color >= 0 ? color : MPI_UNDEFINED, w->rank, &c) != MPI_SUCCESS) rmpi_die(w, "comm split");
	sub->comm = c;
	sub->size = 0;
	if (c != MPI_COMM_NULL) { MPI_Comm_rank(c, &sub->rank); MPI_Comm_size(c, &sub->size); }
	return RK_OK;
}

void rmpi_sub_free(rmpi_t *sub)
{
	if (sub->mpi && sub->comm != MPI_COMM_NULL) MPI_Comm_free(&sub->comm);
	sub->comm = MPI_COMM_NULL;
}

int rmpi_any(const rmpi_t *w, int flag)
{
	int in = flag != 0, out = 0;
	if (!w->mpi) return in;
	if (MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_MAX, w->comm) != MPI_SUCCESS) rmpi_die(w, "any");
	return out;
}

void rmpi_allgather(const rmpi_t *w, const void *mine, size_t n, void *all)
{
	if (!w->mpi) { memcpy(all, mine, n); return; }
	if (MPI_Allgather(mine, (int)n, MPI_BYTE, all, (int)n, MPI_BYTE, w->comm) != MPI_SUCCESS) rmpi_die(w, "allgather");
}

void rmpi_sum_u32_to(const rmpi_t *w, uint32_t *x, const uint64_t *off)
{
	/* MPI_Reduce per owner: 1.8 s for 2 x 1.4 GB on the H200 host; pairwise MPI_Sendrecv into a
	 * fresh buffer with the adds on 16 threads took 2.75 s there */
	if (!w->mpi) return;
	for (int r = 0; r < w->size; r++)
		for (uint64_t o = off[r]; o < off[r + 1]; o += 1u << 28) {
			int c = (int)(off[r + 1] - o < (1u << 28) ? off[r + 1] - o : (1u << 28));
			if (MPI_Reduce(w->rank == r ? MPI_IN_PLACE : x + o, x + o, c, MPI_UINT32_T, MPI_SUM, r, w->comm) != MPI_SUCCESS)
				rmpi_die(w, "sum");
		}
}

void rmpi_bcast_i64(const rmpi_t *w, int root, int64_t *x)
{
	if (w->mpi && MPI_Bcast(x, 1, MPI_INT64_T, root, w->comm) != MPI_SUCCESS) rmpi_die(w, "broadcast");
}

/* Wait for rq sleeping between polls, from 20 us up to 1 ms: Open MPI's blocking calls spin,
 * and a rank left out of a computation would take a core from the one doing it. */
static void rmpi_wait_idle(const rmpi_t *w, MPI_Request *rq, const char *what)
{
	long ns = 20000;
	for (;;) {
		int done = 0;
		if (MPI_Test(rq, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS) rmpi_die(w, what);
		if (done) return;
		struct timespec t = { 0, ns };
		nanosleep(&t, 0);
		if (ns < 1000000) ns *= 2;
	}
}

rk_status_t rmpi_agree_idle(const rmpi_t *w, rk_status_t local)
{
	int in = (int)local, out = 0;
	MPI_Request rq;
	if (!w->mpi) return local;
	if (MPI_Iallreduce(&in, &out, 1, MPI_INT, MPI_MAX, w->comm, &rq) != MPI_SUCCESS) rmpi_die(w, "agree");
	rmpi_wait_idle(w, &rq, "agree");
	if (out != RK_OK) { rio_cleanup_quiet(); rmpi_say_errors(w); }
	return (rk_status_t)out;
}

double rmpi_sum_idle(const rmpi_t *w, double x)
{
	double out = x;
	MPI_Request rq;
	if (!w->mpi) return x;
	if (MPI_Iallreduce(&x, &out, 1, MPI_DOUBLE, MPI_SUM, w->comm, &rq) != MPI_SUCCESS) rmpi_die(w, "sum");
	rmpi_wait_idle(w, &rq, "sum");
	return out;
}

void rmpi_bcast_idle(const rmpi_t *w, int root, void *buf, size_t n)
{
	MPI_Request rq;
	if (!w->mpi) return;
	if (n > INT32_MAX || MPI_Ibcast(buf, (int)n, MPI_BYTE, root, w->comm, &rq) != MPI_SUCCESS) rmpi_die(w, "broadcast");
	rmpi_wait_idle(w, &rq, "broadcast");
}

void rmpi_recv_idle(const rmpi_t *w, void *buf, size_t n, int from, int tag)
{
	MPI_Request rq;
	for (size_t o = 0; o < n; o += 1u << 30) {
		int c = (int)(n - o < (1u << 30) ? n - o : (1u << 30));
		if (MPI_Irecv((char *)buf + o, c, MPI_BYTE, from, tag, w->comm, &rq) != MPI_SUCCESS) rmpi_die(w, "receive");
		rmpi_wait_idle(w, &rq, "receive");
	}
}

/* pieces of at most 1 GB: MPI counts are int */
void rmpi_send(const rmpi_t *w, const void *buf, size_t n, int to, int tag)
{
	for (size_t o = 0; o < n; o += 1u << 30) {
		int c = (int)(n - o < (1u << 30) ? n - o : (1u << 30));
		if (MPI_Send((const char *)buf + o, c, MPI_BYTE, to, tag, w->comm) != MPI_SUCCESS) rmpi_die(w, "send");
	}
}

void rmpi_recv(const rmpi_t *w, void *buf, size_t n, int from, int tag)
{
	for (size_t o = 0; o < n; o += 1u << 30) {
		int c = (int)(n - o < (1u << 30) ? n - o : (1u << 30));
		if (MPI_Recv((char *)buf + o, c, MPI_BYTE, from, tag, w->comm, MPI_STATUS_IGNORE) != MPI_SUCCESS) rmpi_die(w, "receive");
	}
}

void rmpi_sum_vec(const rmpi_t *w, double *x, int64_t m)
{
	if (w->mpi && m > 0 && MPI_Allreduce(MPI_IN_PLACE, x, (int)m, MPI_DOUBLE, MPI_SUM, w->comm) != MPI_SUCCESS) rmpi_die(w, "sum");
}

void rmpi_max_vec(const rmpi_t *w, double *x, int64_t m)
{
	if (w->mpi && m > 0 && MPI_Allreduce(MPI_IN_PLACE, x, (int)m, MPI_DOUBLE, MPI_MAX, w->comm) != MPI_SUCCESS) rmpi_die(w, "max");
}

double rmpi_sum(const rmpi_t *w, double x)
{
	double out = x;
	if (w->mpi && MPI_Allreduce(&x, &out, 1, MPI_DOUBLE, MPI_SUM, w->comm) != MPI_SUCCESS) rmpi_die(w, "sum");
	return out;
}

#define RMPI_CHUNK (1ull << 30)  /* MPI counts are int: large buffers move in pieces */

static int rmpi_bcast_bytes(void *buf, uint64_t n, int root, MPI_Comm comm)
{
	for (uint64_t o = 0; o < n; o += RMPI_CHUNK) {
		int c = (int)(n - o < RMPI_CHUNK ? n - o : RMPI_CHUNK);
		if (MPI_Bcast((char *)buf + o, c, MPI_BYTE, root, comm) != MPI_SUCCESS) return -1;
	}
	return 0;
}

void rmpi_bcast(const rmpi_t *w, int root, void *buf, size_t n)
{
	if (w->mpi && rmpi_bcast_bytes(buf, n, root, w->comm)) rmpi_die(w, "broadcast");
}

static int rmpi_send_bytes(const void *buf, uint64_t n, int to, MPI_Comm comm)
{
	if (MPI_Send(&n, 1, MPI_UINT64_T, to, 7, comm) != MPI_SUCCESS) return -1;
	for (uint64_t o = 0; o < n; o += RMPI_CHUNK) {
		int c = (int)(n - o < RMPI_CHUNK ? n - o : RMPI_CHUNK);
		if (MPI_Send((const char *)buf + o, c, MPI_BYTE, to, 7, comm) != MPI_SUCCESS) return -1;
	}
	return 0;
}

/* Receive one message of rmpi_send_bytes; *buf is allocated here, the caller frees it.
 * Without memory for it the job cannot go on in step: it ends with exit 2. */
static int rmpi_recv_bytes(const rmpi_t *w, void **buf, uint64_t *n, int from)
{
	if (MPI_Recv(n, 1, MPI_UINT64_T, from, 7, w->comm, MPI_STATUS_IGNORE) != MPI_SUCCESS) return -1;
	char *b = malloc(*n ? *n : 1);
	if (!b) {
		rk_err("rank %d: out of memory receiving %.3g MB from rank %d", w->rank, *n / 1e6, from);
		rmpi_abort(w);
	}
	*buf = b;
	for (uint64_t o = 0; o < *n; o += RMPI_CHUNK) {
		int c = (int)(*n - o < RMPI_CHUNK ? *n - o : RMPI_CHUNK);
		if (MPI_Recv(b + o, c, MPI_BYTE, from, 7, w->comm, MPI_STATUS_IGNORE) != MPI_SUCCESS) return -1;
	}
	return 0;
}

rk_status_t rmpi_gather_each(const rmpi_t *w, const void *mine, uint64_t n, rmpi_take_f take, void *ctx)
{
	rk_status_t st = RK_OK;
	if (w->rank != 0) {
		if (rmpi_send_bytes(mine, n, 0, w->comm)) rmpi_die(w, "gather");
		return rmpi_agree(w, st);
	}
	st = take(ctx, 0, mine, n);
	if (st) rk_err("%s", rk_error());
	for (int p = 1; p < w->size; p++) {
		void *buf = 0;
		uint64_t m = 0;
		if (rmpi_recv_bytes(w, &buf, &m, p)) rmpi_die(w, "gather");
		if (!st && (st = take(ctx, p, buf, m)) != RK_OK) rk_err("%s", rk_error());
		free(buf);
	}
	return rmpi_agree(w, st);
}

enum { RMPI_TAG_PIECE = 9 };

/* a piece to rank 0: its size and whether more follow, then its bytes */
static void piece_send(const rmpi_t *w, const void *data, uint64_t n, int more)
{
	uint64_t hdr[2] = { n, (uint64_t)more };
	if (MPI_Send(hdr, 2, MPI_UINT64_T, 0, RMPI_TAG_PIECE, w->comm) != MPI_SUCCESS) rmpi_die(w, "gather");
	rmpi_send(w, data, (size_t)n, 0, RMPI_TAG_PIECE);
}

rk_status_t rmpi_pieces_put(const rmpi_t *w, rmpi_pieces_t *g, const void *data, uint64_t n)
{
	if (w->rank != 0) {
		piece_send(w, data, n, 1);
		return RK_OK;
	}
	if (!g->st && (g->st = g->take(g->ctx, 0, data, n)) != RK_OK) rk_err("%s", rk_error());
	return g->st;
}

rk_status_t rmpi_pieces_end(const rmpi_t *w, rmpi_pieces_t *g, const void *data, uint64_t n, rk_status_t st)
{
	if (w->rank != 0) {
		piece_send(w, data, n, 0);
		return rmpi_agree(w, st);
	}
	if (!st) rmpi_pieces_put(w, g, data, n);
	char *buf = 0;
	uint64_t cap = 0;
	for (int p = 1; p < w->size; p++) {
		uint64_t hdr[2];
		do {
			if (MPI_Recv(hdr, 2, MPI_UINT64_T, p, RMPI_TAG_PIECE, w->comm, MPI_STATUS_IGNORE) != MPI_SUCCESS) rmpi_die(w, "gather");
			if (hdr[0] > cap) {
				free(buf);
				cap = hdr[0];
				if (!(buf = malloc(cap))) {
					rk_err("rank 0: out of memory receiving %.3g MB from rank %d", cap / 1e6, p);
					rmpi_abort(w);
				}
			}
			rmpi_recv(w, buf, (size_t)hdr[0], p, RMPI_TAG_PIECE);
			if (!g->st && (g->st = g->take(g->ctx, p, buf, hdr[0])) != RK_OK) rk_err("%s", rk_error());
		} while (hdr[1]);
	}
	free(buf);
	return rmpi_agree(w, st ? st : g->st);
}

rk_status_t rmpi_check_outputs(const rmpi_t *w, const char *const *outs, int n_out, const char *const *ins, int n_in)
{
	rk_status_t st = RK_OK;
	if (w->rank == 0 && (st = rio_out_check(outs, n_out, ins, n_in)) != RK_OK) rk_err("%s", rk_error());
	return rmpi_agree(w, st);
}

/* a sample of the reads' bytes (4096 spots), to tell two copies of an input apart cheaply */
static uint64_t reads_sample(const rio_reads_t *r)
{
	uint64_t h = 1469598103934665603ull;
	const uint64_t ns = r->off[r->n], nn = r->name_off[r->n];
	for (uint64_t i = 0; i < 4096; i++) {
		if (ns) h = (h ^ (uint8_t)r->seq[i * ns / 4096]) * 1099511628211ull;
		if (nn) h = (h ^ (uint8_t)r->names[i * nn / 4096]) * 1099511628211ull;
	}
	return h;
}

/* The reads' symbols held once per node: windows made by bcast_reads, freed by rmpi_finalize
 * (every rank reaches it; a rank that freed its reads earlier must not wait for the others). */

/* Collective: root's r->seq (n bytes) moved into a node-shared window on every rank; 0 when
 * no node has two ranks (or RKTLCS_NO_SHARE), so each rank keeps its own copy. */
static int share_seq(const rmpi_t *w, int root, rio_reads_t *r, uint64_t n)
{
	if (rk_tune.no_share || rmpi_n_shm == RMPI_MAX_SHM || !rmpi_any(w, w->local_size > 1)) return 0;
	rmpi_shm_t *s = &rmpi_shms[rmpi_n_shm];
	if (rmpi_shm_alloc(w, n, s) != RK_OK) return 0;
	rmpi_n_shm++;
	if (w->rank == root) {
		memcpy(s->base, r->seq, n);
		free(r->seq);
	}
	rmpi_shm_sync(w, s);
	rmpi_shm_bcast(w, s, 0, n, root);
	rmpi_shm_sync(w, s);
	r->seq = s->base;
	r->seq_shared = 1;
	if (w->rank == 0 && s->shared)
		rk_debug("reads: %.1f MB of sequence shared by %d ranks on this node", n / 1e6, s->node_size);
	return 1;
}

/* Rank 0's reads (already read, st its status) to every rank. */
static rk_status_t bcast_reads(const rmpi_t *w, int root, rio_reads_t *r, rk_status_t st, rmpi_clock_t *k)
{
	if ((st = rmpi_agree(w, st)) != RK_OK || !w->mpi) return st;
	uint64_t hdr[4] = { (uint64_t)r->n, (uint64_t)r->n_bases, 0, 0 };
	if (w->rank == root) { hdr[2] = r->off[r->n]; hdr[3] = r->name_off[r->n]; }
	if (MPI_Bcast(hdr, 4, MPI_UINT64_T, root, w->comm) != MPI_SUCCESS) rmpi_die(w, "broadcast");
	const int shared = share_seq(w, root, r, hdr[2]);
	if (w->rank != root) {
		r->n = (int64_t)hdr[0]; r->n_bases = (int64_t)hdr[1];
		r->off = malloc(sizeof(uint64_t) * (hdr[0] + 1));
		r->name_off = malloc(sizeof(uint64_t) * (hdr[0] + 1));
		if (!shared) r->seq = malloc(hdr[2] ? hdr[2] : 1);
		r->names = malloc(hdr[3] ? hdr[3] : 1);
		if (!r->off || !r->name_off || !r->seq || !r->names) {
			rk_err("rank %d: out of memory for %llu bases", w->rank, (unsigned long long)hdr[1]);
			st = RK_ERES;
		}
	}
	if ((st = rmpi_agree(w, st)) != RK_OK) return st;
	if (rmpi_bcast_bytes(r->off, 8 * (hdr[0] + 1), root, w->comm) || rmpi_bcast_bytes(r->name_off, 8 * (hdr[0] + 1), root, w->comm) ||
	    (!shared && rmpi_bcast_bytes(r->seq, hdr[2], root, w->comm)) || rmpi_bcast_bytes(r->names, hdr[3], root, w->comm))
		rmpi_die(w, "broadcast of the reads");
	if (k) rmpi_clock_lap(k, RMPI_DIST);
	return RK_OK;
}

/* RKTLCS_READ_EACH: every rank reads a regular file itself, in parallel, instead of rank 0
 * reading and broadcasting it. On one node it is slower (hamming 100k x 30 kb, 2 ranks of 16
 * threads on 2 H200: 3.0 s reading against 0.8 s + 1.6 s broadcast), so it is not the default;
 * parallel file systems on many nodes are what it is for. Rank 0 reports input errors (the others
 * read the same bytes). When the ranks read different records (node-local files of one name, or
 * a file that changed), rank 0's are broadcast. */
static rk_status_t read_each(const rmpi_t *w, const char *path, int keep_case, rio_reads_t *r, rmpi_clock_t *k)
{
	rk_status_t st = rio_read_all_case(path, r, keep_case);
	if (st != RK_OK && (w->rank == 0 || st != RK_EINPUT)) rk_err("%s", rk_error());
	if (k) rmpi_clock_lap(k, RMPI_READ);
	const rk_status_t all = rmpi_agree(w, st);
	if (all != RK_OK) {
		if (w->rank == 0 && st == RK_OK) rk_err("%s: another rank could not read it", path);
		return all;
	}
	uint64_t hdr[5] = { (uint64_t)r->n, (uint64_t)r->n_bases, r->off[r->n], r->name_off[r->n], reads_sample(r) };
	uint64_t *hs = malloc(sizeof hdr * (size_t)w->size);
	if (!hs) {
		rk_err("rank %d: out of memory", w->rank);
		rmpi_abort(w);
	}
	rmpi_allgather(w, hdr, sizeof hdr, hs);
	int differ = 0;
	for (int p = 1; p < w->size; p++) differ |= memcmp(hs, hs + 5 * p, sizeof hdr) != 0;
	free(hs);
	if (!differ) {
		if (k) rmpi_clock_lap(k, RMPI_DIST);
		return RK_OK;
	}
	if (w->rank == 0) rk_info("%s: the ranks' copies differ; using rank 0's", path);
	else {
		rio_reads_free(r);
		memset(r, 0, sizeof *r);
	}
	return bcast_reads(w, 0, r, RK_OK, k);
}

rk_status_t rmpi_read_reads(const rmpi_t *w, const char *path, int keep_case, rio_reads_t *r, rmpi_clock_t *k)
{
	rk_status_t st = RK_OK;
	memset(r, 0, sizeof *r);
	if (w->mpi && w->size > 1 && rk_tune.read_each) {
		/* a regular file every rank sees (not stdin, a pipe or a node-local path) */
		struct stat sb;
		const int each = strcmp(path, "-") && stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
		if (!rmpi_any(w, !each)) return read_each(w, path, keep_case, r, k);
	}
	if (w->rank == 0 && (st = rio_read_all_case(path, r, keep_case)) != RK_OK) rk_err("%s", rk_error());
	if (k) rmpi_clock_lap(k, RMPI_READ);
	return bcast_reads(w, 0, r, st, k);
}

/* Two inputs, when rank 1 shares rank 0's node (its node-local rank is then 1: the split is
 * keyed by world rank) and the second is a regular file: rank 0 reads the first while rank 1
 * reads the second, then each broadcasts its own. A split 10 Mb pair on two H200 spent
 * 0.024-0.035 s reading both on rank 0 while rank 1 waited. The first file's error goes first,
 * as when one rank reads both; the second's only when the first was read. */
rk_status_t rmpi_read_two(const rmpi_t *w, const char *pa, const char *pb, int keep_case, rio_reads_t *a, rio_reads_t *b, rmpi_clock_t *k)
{
	memset(a, 0, sizeof *a);
	memset(b, 0, sizeof *b);
	int two = w->mpi && w->size > 1 && !rk_tune.read_each;
	if (two) {
		struct stat sb;
		const int ok = w->rank != 1 || (w->local_rank == 1 && strcmp(pb, "-") && stat(pb, &sb) == 0 && S_ISREG(sb.st_mode));
		two = !rmpi_any(w, !ok);
	}
	if (!two) {
		rk_status_t st = rmpi_read_reads(w, pa, keep_case, a, k);
		return st != RK_OK ? st : rmpi_read_reads(w, pb, keep_case, b, k);
	}
	rk_status_t sa = RK_OK, sb = RK_OK;
	char msg[1024] = "";
	if (w->rank == 0 && (sa = rio_read_all_case(pa, a, keep_case)) != RK_OK) rk_err("%s", rk_error());
	if (w->rank == 1 && (sb = rio_read_all_case(pb, b, keep_case)) != RK_OK) snprintf(msg, sizeof msg, "%s", rk_error());
	if (k) rmpi_clock_lap(k, RMPI_READ);
	if ((sa = rmpi_agree(w, sa)) != RK_OK) return sa;
	if (sb != RK_OK) rk_err("%s", msg);
	if ((sb = rmpi_agree(w, sb)) != RK_OK) return sb;
	rk_status_t st = bcast_reads(w, 0, a, RK_OK, 0);
	if (st == RK_OK) st = bcast_reads(w, 1, b, RK_OK, 0);
	if (k) rmpi_clock_lap(k, RMPI_DIST);
	return st;
}
