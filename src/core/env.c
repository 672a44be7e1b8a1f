/* setenv, putenv and unsetenv for the whole process: these definitions in the executable
 * take the place of glibc's for every library (MPI's, CUDA's). glibc's setenv grows the
 * environment's array with realloc, which frees the old array while a getenv on another
 * thread may be walking it. The GPU context's thread (cuInit, which calls getenv) runs beside
 * MPI_Init, which sets variables: a rank segfaulted in getenv (one run of 36 at np 4 on 4
 * H200). Here an array, once the environment, is never freed: a new variable goes into room
 * left at its end (its terminator written first), or into a new array twice as large, the old
 * one kept. Replaced strings are kept too (a reader may hold one): every block made here is
 * chained from env_kept, so that LeakSanitizer sees it reachable. glibc's getenv reads the
 * arrays as they are, without a lock; writers take one of their own. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

extern char **environ;
static pthread_mutex_t env_mu = PTHREAD_MUTEX_INITIALIZER;
static char **env_own;   /* the last array made here (NULL: none) */
static size_t env_cap;   /* its entries, the terminator's included */
static void *env_kept;   /* the blocks made here, each chained through its first word */

static int env_name_bad(const char *name)
{
	if (name && *name && !strchr(name, '=')) return 0;
	errno = EINVAL;
	return 1;
}

/* n bytes, never freed; under env_mu */
static void *env_alloc(size_t n)
{
	void **b = malloc(sizeof(void *) + n);
	if (!b) return 0;
	b[0] = env_kept;
	env_kept = b;
	return b + 1;
}

/* the index of variable name (nl bytes) in e, or of its terminator (*found 0) */
static size_t env_find(char **e, const char *name, size_t nl, int *found)
{
	size_t n = 0;
	*found = 0;
	for (; e && e[n]; n++)
		if (!strncmp(e[n], name, nl) && e[n][nl] == '=') { *found = 1; break; }
	return n;
}

/* s ("name=value") as the variable at index n of environ (env_find's): in place of the old
 * one (found), or added at the end. 0, or -1 out of memory. Under env_mu. */
static int env_set(char *s, size_t n, int found)
{
	char **e = environ;
	if (found) { __atomic_store_n(&e[n], s, __ATOMIC_RELEASE); return 0; }
	if (e != env_own || n + 2 > env_cap) {
		const size_t cap = 2 * (n + 2) < 64 ? 64 : 2 * (n + 2);
		char **ne = env_alloc(cap * sizeof *ne);
		if (!ne) return -1;
		memset(ne, 0, cap * sizeof *ne);
		if (n) memcpy(ne, e, n * sizeof *ne);
		env_own = ne;
		env_cap = cap;
		__atomic_store_n(&environ, ne, __ATOMIC_RELEASE);
		e = ne;
	}
	e[n + 1] = 0;
	__atomic_store_n(&e[n], s, __ATOMIC_RELEASE);
	return 0;
}

int setenv(const char *name, const char *value, int overwrite)
{
	if (env_name_bad(name)) return -1;
	const size_t nl = strlen(name), vl = strlen(value);
	int found, r = 0;
	pthread_mutex_lock(&env_mu);
	const size_t n = env_find(environ, name, nl, &found);
	if (!found || overwrite) {
		char *s = env_alloc(nl + vl + 2);
		if (s) {
			memcpy(s, name, nl);
			s[nl] = '=';
			memcpy(s + nl + 1, value, vl + 1);
		}
		r = s ? env_set(s, n, found) : -1;
	}
	pthread_mutex_unlock(&env_mu);
	if (r) errno = ENOMEM;
	return r;
}

int unsetenv(const char *name)
{
	if (env_name_bad(name)) return -1;
	const size_t nl = strlen(name);
	pthread_mutex_lock(&env_mu);
	char **e = environ;
	/* in place, as glibc: a reader may miss or see twice a neighbour, never a freed entry */
	for (size_t i = 0; e && e[i];) {
		if (strncmp(e[i], name, nl) || e[i][nl] != '=') { i++; continue; }
		for (size_t j = i; e[j]; j++) __atomic_store_n(&e[j], e[j + 1], __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&env_mu);
	return 0;
}

int putenv(char *string)
{
	const char *eq = strchr(string, '=');
	if (!eq) return unsetenv(string);   /* glibc: "NAME" alone removes NAME */
	if (eq == string) { errno = EINVAL; return -1; }
	int found;
	pthread_mutex_lock(&env_mu);
	const size_t n = env_find(environ, string, (size_t)(eq - string), &found);
	const int r = env_set(string, n, found);
	pthread_mutex_unlock(&env_mu);
	if (r) errno = ENOMEM;
	return r;
}
