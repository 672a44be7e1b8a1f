/* One copy per node (rmpi.h): a node's ranks read the same bytes from one shared window.
 * Without it, `mpirun -np 32` on one node held 32 copies of hamming's compact set. */
#include <stdlib.h>
#include <string.h>
#include "mpi/transport/rmpi.h"

rk_status_t rmpi_shm_alloc(const rmpi_t *w, uint64_t bytes, rmpi_shm_t *s)
{
	memset(s, 0, sizeof *s);
	s->node = s->lead = MPI_COMM_NULL;
	s->win = MPI_WIN_NULL;
	s->bytes = bytes;
	s->node_size = 1;
	rk_status_t st = RK_OK;
	if (w->mpi) {
		if (rk_tune.no_share) MPI_Comm_split(w->comm, w->rank, 0, &s->node);
		else MPI_Comm_split_type(w->comm, MPI_COMM_TYPE_SHARED, w->rank, MPI_INFO_NULL, &s->node);
		MPI_Comm_set_errhandler(s->node, MPI_ERRORS_RETURN);
		MPI_Comm_rank(s->node, &s->node_rank);
		MPI_Comm_size(s->node, &s->node_size);
		MPI_Comm_split(w->comm, s->node_rank == 0 ? 0 : MPI_UNDEFINED, w->rank, &s->lead);
		int mine = -1;
		if (s->lead != MPI_COMM_NULL) MPI_Comm_rank(s->lead, &mine);
		MPI_Bcast(&mine, 1, MPI_INT, 0, s->node);
		if (!(s->lead_of = malloc(sizeof(int) * (size_t)w->size))) {
			rk_err("rank %d: out of memory", w->rank);
			MPI_Abort(w->comm, 2);
		}
		rmpi_allgather(w, &mine, sizeof mine, s->lead_of);
	}
	s->shared = s->node_size > 1;
	if (s->shared) {
		void *p = 0;
		MPI_Aint sz = s->node_rank == 0 ? (MPI_Aint)(bytes + 8) : 0;
		int disp = 1;
		if (MPI_Win_allocate_shared(sz, 1, MPI_INFO_NULL, s->node, &p, &s->win) != MPI_SUCCESS) {
			s->win = MPI_WIN_NULL;
			st = RK_ERES;
		} else {
			MPI_Win_shared_query(s->win, 0, &sz, &disp, &s->base);
			/* passive target for the whole life of the window: stores, then rmpi_shm_sync */
			MPI_Win_lock_all(MPI_MODE_NOCHECK, s->win);
		}
	} else if (!(s->base = malloc(bytes + 8)))
		st = RK_ERES;
	if (st) rk_err("rank %d: out of memory: %.3g GB for data shared by the node's %d rank%s", w->rank, (bytes + 8) / 1e9,
	               s->node_size, s->node_size > 1 ? "s" : "");
	return rmpi_agree(w, st);
}

void rmpi_shm_sync(const rmpi_t *w, rmpi_shm_t *s)
{
	(void)w;
	if (!s->shared) return;
	MPI_Win_sync(s->win);
	MPI_Barrier(s->node);
	MPI_Win_sync(s->win);
}

void rmpi_shm_bcast(const rmpi_t *w, rmpi_shm_t *s, uint64_t off, uint64_t n, int owner)
{
	int nl = 0;
	if (!w->mpi || s->lead == MPI_COMM_NULL || (MPI_Comm_size(s->lead, &nl), nl < 2)) return;
	for (uint64_t o = 0; o < n; o += 1ull << 30) {
		int c = (int)(n - o < (1ull << 30) ? n - o : (1ull << 30));
		if (MPI_Bcast((char *)s->base + off + o, c, MPI_BYTE, s->lead_of[owner], s->lead) != MPI_SUCCESS) {
			rk_err("MPI communication failed (broadcast between nodes) on rank %d", w->rank);
			MPI_Abort(w->comm, 2);
		}
	}
}

void rmpi_shm_free(rmpi_shm_t *s)
{
	if (s->win != MPI_WIN_NULL) {
		MPI_Win_unlock_all(s->win);
		MPI_Win_free(&s->win);
	} else free(s->base);
	if (s->lead != MPI_COMM_NULL) MPI_Comm_free(&s->lead);
	if (s->node != MPI_COMM_NULL) MPI_Comm_free(&s->node);
	free(s->lead_of);
	memset(s, 0, sizeof *s);
	s->win = MPI_WIN_NULL;
	s->node = s->lead = MPI_COMM_NULL;
}
