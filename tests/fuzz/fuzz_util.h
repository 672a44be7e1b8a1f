/* Shared by the fuzz targets: the input bytes as a file the reader can open (a memfd, so
 * nothing touches the disk), and an abort that libFuzzer reports as a crash. */
#ifndef FUZZ_UTIL_H
#define FUZZ_UTIL_H
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include "io/rio.h"

#define FZ_ASSERT(c) do { if (!(c)) { fprintf(stderr, "fuzz invariant failed: %s (%s:%d)\n", #c, __FILE__, __LINE__); abort(); } } while (0)

/* Parse data as FASTA/FASTQ (plain, gzip or BGZF: the reader detects it); RK_OK fills r. */
static inline rk_status_t fz_read(const uint8_t *data, size_t size, int keep_case, rio_reads_t *r)
{
	static int fd = -1;
	char path[64];
	if (fd < 0 && (fd = memfd_create("fuzz", 0)) < 0) abort();
	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size) abort();
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	return rio_read_all_case(path, r, keep_case);
}

/* Every reader error is a one-line message that names the input. */
static inline void fz_check_error(rk_status_t st)
{
	FZ_ASSERT(st == RK_EINPUT || st == RK_ERES || st == RK_EIO);
	FZ_ASSERT(strchr(rk_error(), '\n') == NULL);
	FZ_ASSERT(strstr(rk_error(), "/proc/self/fd/") != NULL);
}
#endif
