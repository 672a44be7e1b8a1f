/* rktlcs: thin entry point; everything else is in the libraries (docs/DEVELOPING.md). */
#include "cli/cli.h"

#ifdef RKTLCS_SANITIZE_BUILD
#include <fcntl.h>
#include <unistd.h>
#include <sys/syscall.h>
/* Sanitizer builds only (tests): a rank under mpirun records whole malloc stacks, so that
 * LeakSanitizer sees Open MPI's libraries in the stacks of what they lose (its plugins are
 * built without frame pointers, so the fast unwinder stops in them, at an address of no
 * module on a second node's ranks) and tests/lsan.supp can name them; a plain process keeps
 * the fast unwinder. A rank does not symbolize: matching Open MPI's few lost blocks by
 * library needs no names, and loading them was much of a small rank's time (whole stacks
 * stay: a plugin's constructor, run by the loader, is named only by the dlopen under it) (docs/DEVELOPING.md, "Sanitizer reports", turns the module+offset
 * frames of a report into names). The sanitizer asks before libc and its own interceptors are
 * set up: raw system calls and plain loops. */
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
	return rk_env_has(env, n, "OMPI_COMM_WORLD_SIZE=") || rk_env_has(env, n, "PMIX_RANK=") ? "fast_unwind_on_malloc=0:symbolize=0" : "";
}
#endif

int main(int argc, char **argv)
{
	return rcli_main(argc, argv);
}
