/* core/exit.c: rk_exit_handoff ends a process at once with its code; the files under the
 * prefix (the GPU driver's, in rktlcs) stay open in a child for hold_ms, so their release is
 * the child's; every other file (here a pipe to a reader) ends with the process. Fails if the
 * prefix's files close with the process, if the child keeps the other files open, if the
 * process waits for the child, or if a null prefix leaves a child behind. And, with the
 * process held at the start of its exit by ptrace (PTRACE_O_TRACEEXIT): fails if a child told
 * to wait for the process's end (after_parent) ends before it, or if one told not to wait does
 * not end at once. This process is the subreaper of the one it tests, so it reaps the child
 * too. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "rktlcs.h"
#include "testutil.h"

#define HOLD_MS 3000

/* The process under test: the FIFO's writer and the pipe's, then rk_exit_handoff. */
static void subject(const char *fifo, const char *prefix, int hold_ms, int after, int out_w, int out_r, int fifo_r)
{
	close(fifo_r);   /* the test's own end, inherited */
	const int fw = open(fifo, O_WRONLY | O_NONBLOCK);   /* a reader is there: no wait */
	if (fw < 0 || dup2(out_w, 1) < 0) _exit(90);
	close(out_w);
	close(out_r);
	if (write(1, "x", 1) != 1) _exit(91);
	/* what rk_files_open counts: the FIFO under the prefix, nothing under another */
	if (prefix && (rk_files_open(prefix) != 1 || rk_files_open("/no/such/prefix") != 0)) _exit(92);
	rk_exit_handoff(prefix, 7, hold_ms, after);
}

/* Seconds until fd polls with what (timeout in s); -1 on none */
static double wait_for(int fd, short what, double timeout, double t0)
{
	struct pollfd p = { fd, what, 0 };
	for (;;) {
		const double left = timeout - (rk_realtime() - t0);
		if (left <= 0) return -1;
		const int r = poll(&p, 1, (int)(left * 1000) + 1);
		if (r < 0 && errno == EINTR) continue;
		if (r <= 0) return -1;
		if (p.revents & what) return rk_realtime() - t0;
		if (p.revents & (POLLERR | POLLNVAL)) return -1;
		if (p.revents & (POLLIN)) {   /* the pipe's byte: read it and wait on */
			char c;
			if (read(fd, &c, 1) < 0) return -1;
		}
	}
}

/* The test's ends: the FIFO (made here) opened for reading, returned; a pipe into po */
static int ends(const char *fifo, int po[2])
{
	CHECK(mkfifo(fifo, 0600) == 0, "mkfifo %s", fifo);
	const int fr = open(fifo, O_RDONLY | O_NONBLOCK);
	CHECK(fr >= 0 && pipe(po) == 0, "FIFO reader or pipe");
	return fr;
}

/* One run: exit code 7 at once, the pipe's end at once, the FIFO's end after the hold (with
 * a prefix) or at once (without), and the child (if any) reaped with 0. after: after_parent. */
static void run(const char *dir, int with_prefix, int after)
{
	char fifo[4200], prefix[4200];
	int po[2];
	snprintf(fifo, sizeof fifo, "%s/held%d%d", dir, with_prefix, after);
	snprintf(prefix, sizeof prefix, "%s/held", dir);
	const int fr = ends(fifo, po);
	const double t0 = rk_realtime();
	const pid_t pid = fork();
	if (pid == 0) subject(fifo, with_prefix ? prefix : 0, HOLD_MS, after, po[1], po[0], fr);
	close(po[1]);
	int status = 0;
	CHECK(waitpid(pid, &status, 0) == pid, "waitpid");
	const double t_exit = rk_realtime() - t0;
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 7, "exit status %d (90-92: the subject's set-up failed)",
	      WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	CHECK(t_exit < 1.5, "the process took %.2f s to end (it must not wait for its child)", t_exit);
	/* the pipe: its reader sees the end once the process has ended, not after the hold */
	const double t_pipe = wait_for(po[0], POLLHUP, 10, t0);
	CHECK(t_pipe >= 0 && t_pipe < 1.5, "the pipe ended after %.2f s (the child kept it open)", t_pipe);
	/* the FIFO: held by the child for HOLD_MS with a prefix, else closed with the process */
	const double t_fifo = wait_for(fr, POLLHUP, 10, t0);
	if (with_prefix) {
		CHECK(t_fifo >= 2.0, "the prefix's file closed after %.2f s, before the child's %d ms hold", t_fifo, HOLD_MS);
		CHECK(t_fifo > 0 && t_fifo < 8, "the prefix's file still open after %.2f s", t_fifo);
	} else {
		CHECK(t_fifo >= 0 && t_fifo < 1.5, "without a prefix the file closed after %.2f s", t_fifo);
	}
	/* the child, reparented here: ended with 0; none without a prefix (a child still running
	 * counts: waitpid's 0) */
	int n_child = 0;
	for (pid_t c; (c = waitpid(-1, &status, with_prefix ? 0 : WNOHANG)) >= 0;) {
		n_child++;
		CHECK(c != pid && (c == 0 || (WIFEXITED(status) && WEXITSTATUS(status) == 0)), "the child %d ended with %d", (int)c, status);
		if (!with_prefix) break;
	}
	CHECK(n_child == with_prefix, "%d children reaped, expected %d", n_child, with_prefix);
	printf("prefix %s, after the process %d: exit %.3f s, pipe %.3f s, held file %.3f s, children %d\n", with_prefix ? "yes" : "no",
	       after, t_exit, t_pipe, t_fifo, n_child);
	close(fr);
	close(po[0]);
	unlink(fifo);
}

/* The state letter of a child of pid (from /proc/N/stat: "R", "S", "Z"...), 0 where none */
static char child_state(pid_t pid)
{
	DIR *d = opendir("/proc");
	char st = 0;
	for (struct dirent *e; d && !st && (e = readdir(d)) != 0;) {
		if (e->d_name[0] < '1' || e->d_name[0] > '9') continue;
		char path[300], buf[512];
		snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
		FILE *f = fopen(path, "r");
		if (!f) continue;
		const size_t n = fread(buf, 1, sizeof buf - 1, f);
		fclose(f);
		buf[n] = 0;
		const char *r = strrchr(buf, ')');   /* after the name: " S ppid ..." */
		char c;
		int pp;
		if (r && sscanf(r + 1, " %c %d", &c, &pp) == 2 && pp == (int)pid) st = c;
	}
	if (d) closedir(d);
	return st;
}

/* No hold, the process stopped by ptrace at the start of its exit (PTRACE_O_TRACEEXIT: before
 * it closes its own copies of the files). The driver's release is the last close of its files,
 * so a child that closed them first left it to the process's exit. With after, the child must
 * still be waiting after HELD_S; without, it must have ended (a zombie of the held process).
 * Once let go, the FIFO ends within 1.5 s. Not run where ptrace is not permitted (said). */
#define HELD_S 0.3
static void run_held(const char *dir, int after)
{
	char fifo[4200], prefix[4200];
	int po[2];
	snprintf(fifo, sizeof fifo, "%s/traced%d", dir, after);
	snprintf(prefix, sizeof prefix, "%s/traced", dir);
	const int fr = ends(fifo, po);
	const pid_t pid = fork();
	if (pid == 0) {
		if (ptrace(PTRACE_TRACEME, 0, 0, 0) != 0) _exit(95);
		raise(SIGSTOP);
		subject(fifo, prefix, 0, after, po[1], po[0], fr);
	}
	close(po[1]);
	int status = 0;
	CHECK(waitpid(pid, &status, 0) == pid, "waitpid");
	if (WIFEXITED(status) && WEXITSTATUS(status) == 95) {
		printf("held in its exit, after the process %d: not run (ptrace not permitted)\n", after);
		goto done;
	}
	CHECK(WIFSTOPPED(status) && WSTOPSIG(status) == SIGSTOP, "the subject did not stop (status %d)", status);
	CHECK(ptrace(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_TRACEEXIT) == 0 && ptrace(PTRACE_CONT, pid, 0, 0) == 0, "ptrace");
	CHECK(waitpid(pid, &status, 0) == pid && WIFSTOPPED(status) && (status >> 8) == (SIGTRAP | (PTRACE_EVENT_EXIT << 8)),
	      "the subject did not stop in its exit (status %d)", status);
	const double t0 = rk_realtime();
	char st = child_state(pid);
	while (st != 'Z' && rk_realtime() - t0 < HELD_S) {
		usleep(2000);
		st = child_state(pid);
	}
	if (after) CHECK(st && st != 'Z', "the child (state %c) did not wait for the process held in its exit", st ? st : '-');
	else CHECK(st == 'Z', "without after_parent the child (state %c) was still there after %.1f s", st ? st : '-', HELD_S);
	CHECK(ptrace(PTRACE_CONT, pid, 0, 0) == 0, "ptrace: let the subject go");
	CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 7, "exit status %d", status);
	const double t_fifo = wait_for(fr, POLLHUP, 10, t0);
	CHECK(t_fifo >= 0 && t_fifo < HELD_S + 1.5, "the prefix's file closed %.2f s after the hold began", t_fifo);
	for (pid_t c; (c = waitpid(-1, &status, 0)) > 0;) CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the child ended with %d", status);
	printf("held in its exit, after the process %d: the child %s during the hold; held file %.3f s after it began\n", after,
	       st == 'Z' ? "ended" : "waited", t_fifo);
done:
	close(fr);
	close(po[0]);
	unlink(fifo);
}

int main(void)
{
	char tmpl[] = "/tmp/rktlcs_exit.XXXXXX", dir[4096];
	/* the real path: /proc/self/fd names the files by it (/tmp may be a link) */
	if (!mkdtemp(tmpl) || !realpath(tmpl, dir)) { perror("mkdtemp"); return 1; }
	if (prctl(PR_SET_CHILD_SUBREAPER, 1) != 0) { perror("prctl"); return 1; }
	run(dir, 1, 0);
	run(dir, 1, 1);
	run(dir, 0, 0);
	run_held(dir, 1);
	run_held(dir, 0);
	rmdir(tmpl);
	printf("test_exit: %s\n", tu_fail ? "FAILED" : "all passed");
	return tu_fail != 0;
}
