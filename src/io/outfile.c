/* Outputs that never destroy anything (rio.h), and the cleanup of their temporaries. */
#define _GNU_SOURCE  /* mkostemp */
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <unistd.h>
#include <sys/stat.h>
#include "io/rio.h"

/* ---- the registry of temporaries, read by the signal handler ---- */
#define RIO_SLOTS 16
static char rio_tmp_paths[RIO_SLOTS][PATH_MAX + 64];
static volatile sig_atomic_t rio_tmp_used[RIO_SLOTS];
static volatile sig_atomic_t rio_exit_ok;

/* slots are 1-based in rio_out_t, so that a zeroed rio_out_t holds none */
static int rio_register(const char *tmp)
{
	for (int i = 0; i < RIO_SLOTS; i++)
		if (!rio_tmp_used[i]) {
			snprintf(rio_tmp_paths[i], sizeof rio_tmp_paths[i], "%s", tmp);
			rio_tmp_used[i] = 1;
			return i + 1;
		}
	return 0;
}

static void rio_unregister(int slot)
{
	if (slot > 0) rio_tmp_used[slot - 1] = 0;
}

static void rio_remove_all(void)
{
	for (int i = 0; i < RIO_SLOTS; i++)
		if (rio_tmp_used[i]) { unlink(rio_tmp_paths[i]); rio_tmp_used[i] = 0; }
}

static void rio_say(const char *a, const char *b)
{
	/* async-signal-safe: write(2) only */
	ssize_t r = write(STDERR_FILENO, a, strlen(a));
	if (b) r = write(STDERR_FILENO, b, strlen(b));
	r = write(STDERR_FILENO, "\n", 1);
	(void)r;
}

static void rio_on_signal(int sig)
{
	rio_remove_all();
	const char *name = sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : sig == SIGHUP ? "SIGHUP" :
	                   sig == SIGPIPE ? "SIGPIPE (the reader of the output went away)" :
	                   sig == SIGXFSZ ? "SIGXFSZ (file size limit exceeded)" : "a signal";
	rio_say("[rktlcs] error: stopped by ", name);
	_exit(sig == SIGXFSZ ? 2 : 128 + sig);
}

static void rio_at_exit(void)
{
	if (rio_exit_ok) return;
	/* exit() from inside a library (libgomp's "Thread creation failed", "Out of memory") */
	rio_remove_all();
	rio_say("[rktlcs] error: a library ended the run (out of memory or threads?); outputs removed", 0);
	_exit(2);
}

void rio_cleanup_install(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGXFSZ };
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = rio_on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
		struct sigaction old;
		/* a signal the caller ignores (nohup, a background job) stays ignored */
		if (sigaction(sigs[i], 0, &old) == 0 && old.sa_handler == SIG_IGN) continue;
		sigaction(sigs[i], &sa, 0);
	}
	atexit(rio_at_exit);
}

void rio_cleanup_normal_exit(void)
{
	rio_exit_ok = 1;
}

/* ---- kinds of output ---- */

static int rio_is_stdout(const char *p) { return !p || strcmp(p, "-") == 0; }

/* A path under /dev or /proc (e.g. /dev/stdout) is a stream, whatever it resolves to. */
static int rio_is_special(const char *p, const struct stat *sb)
{
	return strncmp(p, "/dev/", 5) == 0 || strncmp(p, "/proc/", 6) == 0 || !S_ISREG(sb->st_mode);
}

/* The target of a path: symlinks resolved; a name that does not exist yet keeps its own
 * (resolved) directory. *exists tells whether it is there. Caller frees. */
static char *rio_target(const char *path, int *exists)
{
	char *r = realpath(path, 0);
	if (r) { *exists = 1; return r; }
	*exists = 0;
	struct stat lb;
	if (lstat(path, &lb) == 0 && S_ISLNK(lb.st_mode)) {
		/* a dangling symlink: its target will be created */
		char buf[PATH_MAX];
		ssize_t n = readlink(path, buf, sizeof buf - 1);
		if (n <= 0) return 0;
		buf[n] = 0;
		if (buf[0] == '/') return strdup(buf);
		char *d = strdup(path), *out = malloc(strlen(path) + (size_t)n + 2);
		if (d && out) sprintf(out, "%s/%s", dirname(d), buf);
		free(d);
		return out;
	}
	return strdup(path);
}

static char *rio_dir_of(const char *p)
{
	char *d = strdup(p), *r = d ? strdup(dirname(d)) : 0;
	free(d);
	return r;
}

rk_status_t rio_out_check(const char *const *outs, int n_out, const char *const *ins, int n_in)
{
	for (int i = 0; i < n_out; i++) {
		const char *p = outs[i];
		if (rio_is_stdout(p)) continue;
		struct stat sb;
		if (stat(p, &sb) == 0) {
			if (S_ISDIR(sb.st_mode)) { rk_set_error("%s: is a directory", p); return RK_EIO; }
			for (int j = 0; j < n_in; j++) {
				struct stat ib;
				if (ins[j] && strcmp(ins[j], "-") && stat(ins[j], &ib) == 0 && ib.st_dev == sb.st_dev && ib.st_ino == sb.st_ino &&
				    S_ISREG(sb.st_mode)) {
					rk_set_error("%s: the output is the input file %s; refusing to overwrite it", p, ins[j]);
					return RK_EINPUT;
				}
			}
			for (int j = 0; j < i; j++) {
				struct stat ob;
				if (!rio_is_stdout(outs[j]) && stat(outs[j], &ob) == 0 && ob.st_dev == sb.st_dev && ob.st_ino == sb.st_ino &&
				    S_ISREG(sb.st_mode)) {
					rk_set_error("%s and %s are the same file; give each output its own", outs[j], p);
					return RK_EINPUT;
				}
			}
			if (rio_is_special(p, &sb)) {
				if (access(p, W_OK) != 0) { rk_set_error("%s: cannot write: %s", p, strerror(errno)); return RK_EIO; }
				continue;
			}
		}
		for (int j = 0; j < i; j++)
			if (!rio_is_stdout(outs[j]) && strcmp(outs[j], p) == 0) {
				rk_set_error("%s is given as two outputs; give each output its own", p);
				return RK_EINPUT;
			}
		int exists;
		char *t = rio_target(p, &exists), *d = t ? rio_dir_of(t) : 0;
		int bad = !d || access(d, W_OK | X_OK) != 0;
		int e = errno;
		if (bad) rk_set_error("%s: cannot write in directory %s: %s", p, d ? d : "?", d ? strerror(e) : "out of memory");
		free(t); free(d);
		if (bad) return RK_EIO;
	}
	return RK_OK;
}

rk_status_t rio_out_open(rio_out_t *o, const char *path)
{
	memset(o, 0, sizeof *o);
	if (rio_is_stdout(path)) { o->fp = stdout; return RK_OK; }
	struct stat sb;
	int exists = 0;
	if (!(o->path = strdup(path))) goto oom;
	if (stat(path, &sb) == 0 && rio_is_special(path, &sb)) {
		/* in place, never created or replaced: O_WRONLY without O_CREAT */
		int fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fd < 0 || !(o->fp = fdopen(fd, "w"))) {
			rk_set_error("%s: cannot open for writing: %s", path, strerror(errno));
			if (fd >= 0) close(fd);
			free(o->path); o->path = 0;
			return RK_EIO;
		}
		return RK_OK;
	}
	if (!(o->target = rio_target(path, &exists))) goto oom;
	char *dir = rio_dir_of(o->target), *base = strdup(o->target);
	if (!dir || !base || !(o->tmp = malloc(strlen(dir) + strlen(base) + 32))) { free(dir); free(base); goto oom; }
	sprintf(o->tmp, "%s/.%s.rktlcs-XXXXXX", dir, basename(base));
	free(dir); free(base);
	/* mkostemp: a new name, O_CREAT | O_EXCL (never follows a planted link), mode 0600 */
	int fd = mkostemp(o->tmp, O_CLOEXEC);
	if (fd < 0) {
		rk_set_error("%s: cannot create a temporary file next to it: %s", path, strerror(errno));
		free(o->tmp); free(o->target); free(o->path);
		memset(o, 0, sizeof *o);
		return RK_EIO;
	}
	o->slot = rio_register(o->tmp);
	/* the mode a new file would get (or the replaced file's) */
	if (exists && stat(o->target, &sb) == 0) fchmod(fd, sb.st_mode & 07777);
	else { mode_t m = umask(0); umask(m); fchmod(fd, 0666 & ~m); }
	if (!(o->fp = fdopen(fd, "w"))) { close(fd); rio_out_abort(o); goto oom; }
	return RK_OK;
oom:
	rk_set_error("%s: out of memory", path);
	return RK_ERES;
}

static rk_status_t rio_write_error(const char *what, int e)
{
	rk_set_error("%s: write failed: %s", what, strerror(e));
	return e == ENOSPC || e == EDQUOT || e == EFBIG ? RK_ERES : RK_EIO;
}

rk_status_t rio_out_close(rio_out_t *o)
{
	if (!o->fp) return RK_OK;
	rk_status_t st = RK_OK;
	errno = 0;
	if (o->fp == stdout) {
		if (fflush(stdout) != 0 || ferror(stdout)) st = rio_write_error("stdout", errno ? errno : EIO);
		o->fp = 0;
		return st;
	}
	int bad = fflush(o->fp) != 0 || ferror(o->fp), e = errno;
	if (fclose(o->fp) != 0 && !bad) { bad = 1; e = errno; }
	o->fp = 0;
	if (bad) st = rio_write_error(rio_out_name(o), e ? e : EIO);
	return st;
}

static void rio_out_release(rio_out_t *o)
{
	rio_unregister(o->slot);
	free(o->path); free(o->target); free(o->tmp);
	memset(o, 0, sizeof *o);
}

rk_status_t rio_out_commit(rio_out_t *o)
{
	rk_status_t st = rio_out_close(o);
	if (!st && o->tmp && rename(o->tmp, o->target) != 0) {
		rk_set_error("%s: cannot rename %s over it: %s", rio_out_name(o), o->tmp, strerror(errno));
		st = RK_EIO;
	}
	if (st && o->tmp) unlink(o->tmp);
	rio_out_release(o);
	return st;
}

rk_status_t rio_out_commit_all(rio_out_t *const *outs, int n)
{
	rk_status_t st = RK_OK, s;
	for (int i = 0; i < n; i++)
		if ((s = rio_out_close(outs[i])) != RK_OK && !st) st = s;
	if (st) {
		for (int i = 0; i < n; i++) rio_out_abort(outs[i]);
		return st;
	}
	for (int i = 0; i < n; i++)
		if ((s = rio_out_commit(outs[i])) != RK_OK && !st) st = s;
	return st;
}

void rio_out_abort(rio_out_t *o)
{
	if (o->fp && o->fp != stdout) fclose(o->fp);
	else if (o->fp == stdout) fflush(stdout);
	o->fp = 0;
	if (o->tmp) unlink(o->tmp);
	rio_out_release(o);
}
