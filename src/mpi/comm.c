#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <omp.h>
#include "mpi/rmpi.h"

/* Launched by mpirun/srun? Without a process manager we run as one plain process and
 * skip MPI_Init, whose singleton start-up costs ~0.3 s. */
static int rmpi_launched(void)
{
	static const char *vars[] = { "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMI_RANK", "PMIX_RANK", "MPI_LOCALNRANKS", 0 };
	if (getenv("RKTLCS_FORCE_MPI")) return 1;
	for (int i = 0; vars[i]; i++)
		if (getenv(vars[i])) return 1;
	return 0;
}

rk_status_t rmpi_init(rmpi_t *w, int *argc, char ***argv)
{
	int provided;
	memset(w, 0, sizeof *w);
	w->size = w->local_size = 1;
	if (!rmpi_launched()) return RK_OK;
	w->mpi = 1;
	if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
		rk_set_error("MPI initialisation failed");
		return RK_ERES;
	}
	w->comm = MPI_COMM_WORLD;
	/* errors in MPI calls come back as codes so every rank can agree and exit cleanly */
	MPI_Comm_set_errhandler(w->comm, MPI_ERRORS_RETURN);
	MPI_Comm_rank(w->comm, &w->rank);
	MPI_Comm_size(w->comm, &w->size);
	MPI_Comm local;
	MPI_Comm_split_type(w->comm, MPI_COMM_TYPE_SHARED, w->rank, MPI_INFO_NULL, &local);
	MPI_Comm_rank(local, &w->local_rank);
	MPI_Comm_size(local, &w->local_size);
	MPI_Comm_free(&local);
	return RK_OK;
}

void rmpi_finalize(rmpi_t *w)
{
	if (w->mpi) MPI_Finalize();
}

rk_status_t rmpi_agree(const rmpi_t *w, rk_status_t local)
{
	int in = (int)local, out = 0;
	if (!w->mpi) return local;
	if (MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_MAX, w->comm) != MPI_SUCCESS) {
		rk_log("error: MPI communication failed");
		MPI_Abort(w->comm, 2);
	}
	return (rk_status_t)out;
}

int rmpi_any(const rmpi_t *w, int flag)
{
	int in = flag != 0, out = 0;
	if (!w->mpi) return in;
	if (MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_MAX, w->comm) != MPI_SUCCESS) {
		rk_log("error: MPI communication failed");
		MPI_Abort(w->comm, 2);
	}
	return out;
}

/* MPI counts are int: move large buffers in pieces. */
static int rmpi_bcast_bytes(void *buf, uint64_t n, MPI_Comm comm)
{
	const uint64_t chunk = 1u << 30;
	for (uint64_t o = 0; o < n; o += chunk) {
		int c = (int)(n - o < chunk ? n - o : chunk);
		if (MPI_Bcast((char *)buf + o, c, MPI_BYTE, 0, comm) != MPI_SUCCESS) return -1;
	}
	return 0;
}

rk_status_t rmpi_bcast_reads(const rmpi_t *w, rio_reads_t *r)
{
	if (!w->mpi) return RK_OK;
	uint64_t hdr[4] = { (uint64_t)r->n, (uint64_t)r->n_bases, 0, 0 };
	if (w->rank == 0) { hdr[2] = r->off[r->n]; hdr[3] = r->name_off[r->n]; }
	if (MPI_Bcast(hdr, 4, MPI_UINT64_T, 0, w->comm) != MPI_SUCCESS) MPI_Abort(w->comm, 2);
	rk_status_t st = RK_OK;
	if (w->rank != 0) {
		memset(r, 0, sizeof *r);
		r->n = (int64_t)hdr[0]; r->n_bases = (int64_t)hdr[1];
		r->off = malloc(sizeof(uint64_t) * (hdr[0] + 1));
		r->name_off = malloc(sizeof(uint64_t) * (hdr[0] + 1));
		r->seq = malloc(hdr[2] ? hdr[2] : 1);
		r->names = malloc(hdr[3] ? hdr[3] : 1);
		if (!r->off || !r->name_off || !r->seq || !r->names) {
			rk_log("error: rank %d: out of memory for %llu bases", w->rank, (unsigned long long)hdr[1]);
			st = RK_ERES;
		}
	}
	if ((st = rmpi_agree(w, st)) != RK_OK) return st;
	if (rmpi_bcast_bytes(r->off, 8 * (hdr[0] + 1), w->comm) || rmpi_bcast_bytes(r->name_off, 8 * (hdr[0] + 1), w->comm) ||
	    rmpi_bcast_bytes(r->seq, hdr[2], w->comm) || rmpi_bcast_bytes(r->names, hdr[3], w->comm)) {
		rk_log("error: MPI broadcast of the reads failed");
		MPI_Abort(w->comm, 2);
	}
	return RK_OK;
}

int rmpi_threads(const rmpi_t *w, const rmpi_opt_t *o)
{
	if (o->threads > 0) return o->threads;
	if (getenv("OMP_NUM_THREADS")) return omp_get_max_threads();
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	int t = (int)(cores / (w->local_size > 0 ? w->local_size : 1));
	return t > 0 ? t : 1;
}

#define RMPI_CHUNK (1ull << 30)

int rmpi_send_bytes(const void *buf, uint64_t n, int to, MPI_Comm comm)
{
	for (uint64_t o = 0; o < n; o += RMPI_CHUNK) {
		int c = (int)(n - o < RMPI_CHUNK ? n - o : RMPI_CHUNK);
		if (MPI_Send((const char *)buf + o, c, MPI_BYTE, to, 7, comm) != MPI_SUCCESS) return -1;
	}
	return 0;
}

int rmpi_recv_bytes(void *buf, uint64_t n, int from, MPI_Comm comm)
{
	for (uint64_t o = 0; o < n; o += RMPI_CHUNK) {
		int c = (int)(n - o < RMPI_CHUNK ? n - o : RMPI_CHUNK);
		if (MPI_Recv((char *)buf + o, c, MPI_BYTE, from, 7, comm, MPI_STATUS_IGNORE) != MPI_SUCCESS) return -1;
	}
	return 0;
}
