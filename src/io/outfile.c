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
static volatile sig_atomic_t rio_quiet;  /* the job has agreed to fail and said why */

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
	if (sig == SIGPIPE) {
		/* the reader went away ("| head"): no message, and the exit a shell and a pipeline's
		 * pipefail read as SIGPIPE (141), as samtools and minimap2, which keep the default */
		struct sigaction dfl;
		sigset_t set;
		memset(&dfl, 0, sizeof dfl);
		dfl.sa_handler = SIG_DFL;
		sigaction(SIGPIPE, &dfl, 0);
		sigemptyset(&set);
		sigaddset(&set, SIGPIPE);
		sigprocmask(SIG_UNBLOCK, &set, 0);
		raise(SIGPIPE);
		_exit(128 + sig);
	}
	if (rio_quiet) _exit(128 + sig);
	/* error lines held for the job's one report (mpirun ending this rank before it came) */
	size_t held;
	const char *h = rk_log_held(&held);
	if (held) { ssize_t r = write(STDERR_FILENO, h, held); (void)r; }
	const char *name = sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : sig == SIGHUP ? "SIGHUP" :
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

void rio_cleanup_quiet(void)
{
	rio_quiet = 1;
}

void rio_cleanup_normal_exit(void)
{
	rio_exit_ok = 1;
}

/* ---- kinds of output ---- */

static int rio_is_stdout(const char *p) { return !p || strcmp(p, "-") == 0; }

/* The number N at the end of ".../fd/N", or -1. */
static int rio_fd_number(const char *n)
{
	if (!*n || strspn(n, "0123456789") != strlen(n) || strlen(n) > 9) return -1;
	return atoi(n);
}

/* The descriptor of this process that p names (/dev/stdout, /dev/stderr, /dev/stdin,
 * /dev/fd/N, /proc/self/fd/N, /proc/thread-self/fd/N, /proc/<our pid>/fd/N) when it is
 * open, -2 when p names one that is not open, else -1. Opening such a path anew would start at offset 0 with no O_APPEND: a
 * `>> log` would be overwritten from its start. */
static int rio_own_fd(const char *p)
{
	static const struct { const char *name; int fd; } std[] = { { "/dev/stdin", 0 }, { "/dev/stdout", 1 }, { "/dev/stderr", 2 } };
	static const char *const dirs[] = { "/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/" };
	int fd = -1;
	for (size_t i = 0; i < sizeof std / sizeof std[0] && fd < 0; i++)
		if (strcmp(p, std[i].name) == 0) fd = std[i].fd;
	for (size_t i = 0; i < sizeof dirs / sizeof dirs[0] && fd < 0; i++)
		if (strncmp(p, dirs[i], strlen(dirs[i])) == 0) fd = rio_fd_number(p + strlen(dirs[i]));
	if (fd < 0 && strncmp(p, "/proc/", 6) == 0) {
		char mine[48];
		int n = snprintf(mine, sizeof mine, "/proc/%ld/fd/", (long)getpid());
		if (strncmp(p, mine, (size_t)n) == 0) fd = rio_fd_number(p + n);
	}
	return fd < 0 ? -1 : fcntl(fd, F_GETFD) >= 0 ? fd : -2;
}

/* Written in place: it exists and is no regular file (a device, a FIFO, a socket). */
static int rio_is_special(const struct stat *sb)
{
	return !S_ISREG(sb->st_mode);
}

static char *rio_dir_of(const char *p)
{
	char *d = strdup(p), *r = d ? strdup(dirname(d)) : 0;
	free(d);
	return r;
}

/* The end of a missing path: its directory resolved, its own name kept. */
static char *rio_missing_end(const char *p)
{
	char *d = rio_dir_of(p), *dr = d ? realpath(d, 0) : 0, *b = strdup(p);
	int e = errno;
	char *name = b ? basename(b) : 0, *out = dr && name ? malloc(strlen(dr) + strlen(name) + 2) : 0;
	if (out) sprintf(out, "%s/%s", strcmp(dr, "/") ? dr : "", name);
	free(d); free(dr); free(b);
	if (!out) errno = e ? e : ENOMEM;
	return out;
}

/* The file a path writes, as the shell's '>' finds it: every symlink followed to its end (a
 * missing end is created there), the directory resolved, so that two spellings of one new file
 * compare equal. *exists tells whether it is there. NULL with errno: ELOOP (a loop), EISDIR (a
 * name ending in '/'), ENOENT or ENOTDIR (no such directory). Caller frees. */
static char *rio_target(const char *path, int *exists)
{
	char *r = realpath(path, 0);
	*exists = r != 0;
	if (r || errno == ELOOP) return r;
	char *p = strdup(path);
	for (int hop = 0; p && hop < 40; hop++) {
		size_t l = strlen(p);
		if (l && p[l - 1] == '/') { free(p); errno = EISDIR; return 0; }
		struct stat lb;
		if (lstat(p, &lb) != 0 || !S_ISLNK(lb.st_mode)) {
			char *out = rio_missing_end(p);
			free(p);
			return out;
		}
		char buf[PATH_MAX], *next = 0;
		ssize_t n = readlink(p, buf, sizeof buf - 1);
		if (n > 0) {
			buf[n] = 0;
			char *d = buf[0] == '/' ? 0 : rio_dir_of(p);
			if ((next = malloc((d ? strlen(d) : 0) + (size_t)n + 2))) sprintf(next, "%s%s%s", d ? d : "", d ? "/" : "", buf);
			free(d);
		}
		free(p);
		p = next;
	}
	if (p) { free(p); errno = ELOOP; }
	else if (!errno) errno = ENOMEM;
	return 0;
}


/* A descriptor given as an output must be open for writing. */
static rk_status_t rio_fd_check(const char *p, int fd)
{
	int fl = fcntl(fd, F_GETFL);
	if (fl >= 0 && ((fl & O_ACCMODE) == O_WRONLY || (fl & O_ACCMODE) == O_RDWR)) return RK_OK;
	rk_set_error("%s: cannot write: descriptor %d is not open for writing", p, fd);
	return RK_EIO;
}

/* The checks of an output that exists (sb): not a directory, not an input, not an
 * earlier output. 1 when it is written in place (nothing more to check), 0 to go on. */
static int rio_check_existing(const char *const *outs, int i, const struct stat *sb, const char *const *ins, int n_in,
                              rk_status_t *st)
{
	const char *p = outs[i];
	if (S_ISDIR(sb->st_mode)) { rk_set_error("%s: is a directory", p); *st = RK_EIO; return 1; }
	for (int j = 0; j < n_in && S_ISREG(sb->st_mode); j++) {
		struct stat ib;
		if (ins[j] && strcmp(ins[j], "-") && stat(ins[j], &ib) == 0 && ib.st_dev == sb->st_dev && ib.st_ino == sb->st_ino) {
			rk_set_error("%s: the output is the input file %s; refusing to overwrite it", p, ins[j]);
			*st = RK_EINPUT;
			return 1;
		}
	}
	for (int j = 0; j < i && S_ISREG(sb->st_mode); j++) {
		struct stat ob;
		if (!rio_is_stdout(outs[j]) && stat(outs[j], &ob) == 0 && ob.st_dev == sb->st_dev && ob.st_ino == sb->st_ino) {
			rk_set_error("%s and %s are the same file; give each output its own", outs[j], p);
			*st = RK_EINPUT;
			return 1;
		}
	}
	if (!rio_is_special(sb)) return 0;
	if (access(p, W_OK) != 0) { rk_set_error("%s: cannot write: %s", p, strerror(errno)); *st = RK_EIO; }
	return 1;
}

/* A regular output is replaced by a rename, which asks only the directory: a file its user could
 * not write (read-only, or another user's) is refused, as the shell's '>' refuses it. Then
 * the directory, and the resolved name against the outputs before it (new files too). */
static rk_status_t rio_check_target(const char *const *outs, int i, char **targets)
{
	const char *p = outs[i];
	int exists;
	char *t = rio_target(p, &exists);
	if (!t) {
		rk_set_error("%s: cannot write: %s", p, strerror(errno));
		return errno == ENOMEM ? RK_ERES : RK_EIO;
	}
	targets[i] = t;
	const char *name = strrchr(t, '/');
	if (strlen(name ? name + 1 : t) > NAME_MAX || strlen(t) >= PATH_MAX) {
		rk_set_error("%s: cannot write: %s", p, strerror(ENAMETOOLONG));
		return RK_EIO;
	}
	if (exists && access(t, W_OK) != 0) { rk_set_error("%s: cannot write: %s", p, strerror(errno)); return RK_EIO; }
	for (int j = 0; j < i; j++)
		if (targets[j] && strcmp(targets[j], t) == 0) {
			if (strcmp(outs[j], p)) rk_set_error("%s and %s are the same file; give each output its own", outs[j], p);
			else rk_set_error("%s is given as two outputs; give each output its own", p);
			return RK_EINPUT;
		}
	char *d = rio_dir_of(t);
	int bad = !d || access(d, W_OK | X_OK) != 0, e = errno;
	if (bad) rk_set_error("%s: cannot write in directory %s: %s", p, d ? d : "?", d ? strerror(e) : "out of memory");
	free(d);
	return bad ? RK_EIO : RK_OK;
}

rk_status_t rio_out_check(const char *const *outs, int n_out, const char *const *ins, int n_in)
{
	rk_status_t st = RK_OK;
	char **targets = calloc(n_out > 0 ? (size_t)n_out : 1, sizeof *targets);
	if (!targets) { rk_set_error("out of memory"); return RK_ERES; }
	for (int i = 0; i < n_out && !st; i++) {
		const char *p = outs[i];
		if (rio_is_stdout(p)) continue;
		if (!*p) { rk_set_error("an output file name is empty"); st = RK_EINPUT; break; }
		int fd = rio_own_fd(p);
		if (fd == -2) { rk_set_error("%s: cannot write: no such open descriptor", p); st = RK_EIO; break; }
		if (fd >= 0) { st = rio_fd_check(p, fd); continue; }
		struct stat sb;
		if (stat(p, &sb) == 0 && rio_check_existing(outs, i, &sb, ins, n_in, &st)) continue;
		st = rio_check_target(outs, i, targets);
	}
	for (int i = 0; i < n_out; i++) free(targets[i]);
	free(targets);
	return st;
}

static int rio_compress;

void rio_set_compress(int on) { rio_compress = on; }

/* o->fp on fd: BGZF where the name or --compress asks for it, else plain; o->fd and o->bgzf
 * set. 0 with errno on failure, fd closed. */
static int rio_out_stream(rio_out_t *o, int fd, const char *path)
{
	o->bgzf = rio_compress || rio_out_wants_bgzf(path);
	o->fp = o->bgzf ? rio_bgzf_stream(fd, rio_get_threads()) : fdopen(fd, "w");
	if (!o->fp && !o->bgzf) { int e = errno; close(fd); errno = e; }
	o->fd = fd;
	return o->fp != 0;
}

/* In place: a descriptor of ours (dup'ed, so closing the output leaves it open) or a
 * device, FIFO or socket (O_WRONLY without O_CREAT: never created or replaced). */
static rk_status_t rio_open_in_place(rio_out_t *o, const char *path, int own)
{
	int fd = own >= 0 ? fcntl(own, F_DUPFD_CLOEXEC, 3) : open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || !rio_out_stream(o, fd, path)) {
		rk_set_error("%s: cannot open for writing: %s", path, strerror(errno));
		free(o->path); o->path = 0;
		return RK_EIO;
	}
	return RK_OK;
}

/* The temporary next to the target: unnamed (O_TMPFILE) where the file system allows,
 * else named by mkostemp (O_CREAT | O_EXCL: never follows a planted link; mode 0600) and
 * registered at once. o->tmp holds the name pattern or the name. */
static int rio_open_temp(rio_out_t *o)
{
	char *dir = rio_dir_of(o->target), *base = strdup(o->target);
	if (!dir || !base || !(o->tmp = malloc(strlen(dir) + strlen(base) + 32))) { free(dir); free(base); errno = ENOMEM; return -1; }
	/* the target's name, cut so that the temporary's stays within NAME_MAX (255) */
	sprintf(o->tmp, "%s/.%.*s.rktlcs-XXXXXX", dir, NAME_MAX - 15, basename(base));
	int fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
	free(dir); free(base);
	if (fd >= 0) { o->unnamed = 1; return fd; }
	if ((fd = mkostemp(o->tmp, O_CLOEXEC)) >= 0) o->slot = rio_register(o->tmp);
	return fd;
}

rk_status_t rio_out_open(rio_out_t *o, const char *path)
{
	memset(o, 0, sizeof *o);
	if (rio_is_stdout(path) && rio_compress) {
		/* BGZF on a duplicate of stdout, closed at commit (stdout itself stays open) */
		fflush(stdout);
		int fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
		if (fd < 0 || !rio_out_stream(o, fd, "-")) {
			rk_set_error("stdout: cannot write BGZF: %s", strerror(errno));
			return RK_EIO;
		}
		return RK_OK;
	}
	if (rio_is_stdout(path)) { o->fp = stdout; return RK_OK; }
	struct stat sb;
	int exists = 0, own = rio_own_fd(path);
	if (!(o->path = strdup(path))) goto oom;
	if (own >= 0 || (stat(path, &sb) == 0 && rio_is_special(&sb))) return rio_open_in_place(o, path, own);
	if (!(o->target = rio_target(path, &exists))) {
		rk_set_error("%s: cannot write: %s", path, strerror(errno));
		free(o->path); o->path = 0;
		return errno == ENOMEM ? RK_ERES : RK_EIO;
	}
	int fd = rio_open_temp(o);
	if (fd < 0) {
		int e = errno;
		rk_set_error("%s: cannot create a temporary file next to it: %s", path, strerror(e));
		free(o->tmp); free(o->target); free(o->path);
		memset(o, 0, sizeof *o);
		return e == ENOMEM ? RK_ERES : RK_EIO;
	}
	/* the mode a new file would get (or the replaced file's) */
	if (exists && stat(o->target, &sb) == 0) fchmod(fd, sb.st_mode & 07777);
	else { mode_t m = umask(0); umask(m); fchmod(fd, 0666 & ~m); }
	if (!rio_out_stream(o, fd, path)) { rio_out_abort(o); goto oom; }
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

/* Give the unnamed temporary of fd a free name from the pattern in o->tmp: linkat by the
 * descriptor (AT_EMPTY_PATH, which needs CAP_DAC_READ_SEARCH), else through /proc. The
 * name is registered before it exists, so that no death after the link leaves it. */
static int rio_name_temp(rio_out_t *o, int fd)
{
	char *x = o->tmp + strlen(o->tmp) - 6, proc[64];
	static const char cs[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	unsigned long long r = (unsigned long long)getpid() * 0x9e3779b97f4a7c15ull ^ (unsigned long long)(rk_realtime() * 1e6);
	snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
	for (int t = 0; t < 100; t++) {
		r = r * 6364136223846793005ull + 1442695040888963407ull;
		for (int i = 0; i < 6; i++) x[i] = cs[(r >> (10 + 6 * i)) % (sizeof cs - 1)];
		o->slot = rio_register(o->tmp);
		if (linkat(fd, "", AT_FDCWD, o->tmp, AT_EMPTY_PATH) == 0 || linkat(AT_FDCWD, proc, AT_FDCWD, o->tmp, AT_SYMLINK_FOLLOW) == 0) {
			o->unnamed = 0;
			return 0;
		}
		int e = errno;
		rio_unregister(o->slot);
		o->slot = 0;
		if (e != EEXIST) { errno = e; return -1; }
	}
	errno = EEXIST;
	return -1;
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
	if (!bad && o->unnamed && rio_name_temp(o, o->fd) != 0) {
		e = errno;
		rk_set_error("%s: cannot name the temporary %s: %s", rio_out_name(o), o->tmp, strerror(e));
		st = RK_EIO;
	}
	if (fclose(o->fp) != 0 && !bad) { bad = 1; e = errno; }
	if (bad && o->bgzf && rio_bgzf_errno()) e = rio_bgzf_errno();
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

/* Remove the temporary if it has a name (an unnamed one goes with its descriptor). */
static void rio_drop_temp(rio_out_t *o)
{
	if (o->tmp && !o->unnamed) unlink(o->tmp);
}

rk_status_t rio_out_commit(rio_out_t *o)
{
	rk_status_t st = rio_out_close(o);
	if (!st && o->tmp && rename(o->tmp, o->target) != 0) {
		rk_set_error("%s: cannot rename %s over it: %s", rio_out_name(o), o->tmp, strerror(errno));
		st = RK_EIO;
	}
	if (st) rio_drop_temp(o);
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
	rio_drop_temp(o);
	rio_out_release(o);
}
