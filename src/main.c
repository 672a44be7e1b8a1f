/* rktlcs: thin entry point; everything else is in the libraries (docs/DEVELOPING.md). */
#include "cli/cli.h"

#ifdef RKTLCS_SANITIZE_BUILD
#include <fcntl.h>
#include <unistd.h>
#include <sys/syscall.h>
/* Sanitizer builds only (tests): a rank under mpirun does not symbolize. Matching Open MPI's
 * few lost blocks by library (tests/lsan.supp) needs no names, and loading them was much of
 * a small rank's time (docs/DEVELOPING.md, "Sanitizer reports", turns the module+offset
 * frames of a report into names). What MPI_Init loses is not looked at (src/mpi/transport/
 * comm.c), so ranks keep the fast unwinder. The sanitizer asks before libc and its own
 * interceptors are set up: raw system calls and plain loops. */
__attribute__((no_sanitize("address", "undefined"))) static int rk_env_has(const char *env, long n, const char *key)
{
	for (long i = 0; i < n; i++) {
		long j = 0;
		while (key[j] && i + j < n && env[i + j] == key[j]) j++;
		if (!key[j]) return 1;
		while (i < n && env[i]) i++;  /* to the next NAME=VALUE */
	}
	return 0;
}

const char *__asan_default_options(void);
__attribute__((no_sanitize("address", "undefined"))) const char *__asan_default_options(void)
{
	static char env[1 << 16];
	long fd = syscall(SYS_openat, AT_FDCWD, "/proc/self/environ", O_RDONLY), n = 0, r;
	if (fd < 0) return "";
	while (n < (long)sizeof env && (r = syscall(SYS_read, (int)fd, env + n, sizeof env - (size_t)n)) > 0) n += r;
	syscall(SYS_close, (int)fd);
	return rk_env_has(env, n, "OMPI_COMM_WORLD_SIZE=") || rk_env_has(env, n, "PMIX_RANK=") ? "symbolize=0" : "";
}
#endif

int main(int argc, char **argv)
{
	return rcli_main(argc, argv);
}
