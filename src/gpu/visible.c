/* Which of the node's GPUs this process sees. The CUDA driver starts every visible device
 * (0.2-0.3 s each on H100/H200: with 4 visible, a rank's first CUDA call took ~1 s, issue 29),
 * so a rank that maps no other device's memory sees only its own, chosen before its first
 * CUDA call: CUDA_VISIBLE_DEVICES is set to the one entry the rank would use (its node-local
 * rank modulo the node's devices), in the driver's own order, so device k of all equals the
 * only device of CUDA_VISIBLE_DEVICES=k. The count comes from CUDA_VISIBLE_DEVICES when the
 * launcher set it (SLURM's gres, a user's list), else from the driver's /proc entries. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpu/rgpu.h"

static int vis_node = -2;   /* the node's devices this process could see at start; -1 unknown */
static int vis_own = -1;    /* index among them of the one it kept, -1: it sees all */

/* Entries of a CUDA_VISIBLE_DEVICES list ("0,1", "GPU-uuid,...", "" for none); entry k into
 * out (when out) */
static int vis_entries(const char *v, int k, char *out, size_t size)
{
	int n = 0;
	while (*v) {
		size_t len = strcspn(v, ",");
		if (len > 0) {
			if (n == k && out && len < size) { memcpy(out, v, len); out[len] = 0; }
			n++;
		}
		v += len + (v[len] == ',');
	}
	return n;
}

int rgpu_node_devices(void)
{
	if (vis_node != -2) return vis_node;
	const char *v = getenv("CUDA_VISIBLE_DEVICES");
	if (v) return vis_node = vis_entries(v, -1, 0, 0);
	DIR *d = opendir("/proc/driver/nvidia/gpus");
	if (!d) return vis_node = -1;
	int n = 0;
	for (struct dirent *e; (e = readdir(d)) != 0;) n += e->d_name[0] != '.';
	closedir(d);
	return vis_node = n;
}

int rgpu_visible_own(int local_rank)
{
	if (vis_own >= 0) return vis_own;
	const int n = rgpu_node_devices();
	const char *off = getenv("RKTLCS_GPU_VISIBLE");
	if (n <= 1 || local_rank < 0 || (off && !strcmp(off, "all"))) return -1;
	const int k = local_rank % n;
	char one[256] = "";
	const char *v = getenv("CUDA_VISIBLE_DEVICES");
	if (v) vis_entries(v, k, one, sizeof one);
	else snprintf(one, sizeof one, "%d", k);
	if (!one[0] || setenv("CUDA_VISIBLE_DEVICES", one, 1) != 0) return -1;
	return vis_own = k;
}

int rgpu_visible_index(void) { return vis_own; }

void rgpu_before_cuda(void)
{
	/* One hardware work queue a device, not 8: the context is made in half the time (0.10 ->
	 * 0.05 s on an H200, 1.0 -> 0.3-0.44 s for rank 0 when 4 ranks start at once, the driver
	 * making them in turn), and no job here loses by it (each rank's streams are a pipeline
	 * of one block's copy, kernel and copy back; docs/bench/rounds-2026-11-27.md, "One hardware work queue a device").
	 * A user's own setting is kept. */
	setenv("CUDA_DEVICE_MAX_CONNECTIONS", "1", 0);
}
