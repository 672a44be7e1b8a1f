#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include "io/rio.h"

rk_status_t rio_out_open(rio_out_t *o, const char *path)
{
	memset(o, 0, sizeof *o);
	if (!path || strcmp(path, "-") == 0) {
		o->fp = stdout;
		return RK_OK;
	}
	size_t n = strlen(path) + 32;
	o->path = strdup(path);
	o->tmp = malloc(n);
	if (!o->path || !o->tmp) { rk_set_error("out of memory"); return RK_ERES; }
	snprintf(o->tmp, n, "%s.tmp.%ld", path, (long)getpid());
	o->fp = fopen(o->tmp, "w");
	if (!o->fp) {
		rk_set_error("%s: cannot open for writing: %s", path, strerror(errno));
		free(o->path); free(o->tmp); o->path = o->tmp = 0;
		return RK_EIO;
	}
	return RK_OK;
}

rk_status_t rio_out_commit(rio_out_t *o)
{
	rk_status_t st = RK_OK;
	if (!o->fp) return RK_OK;
	if (o->fp == stdout) {
		if (fflush(stdout) != 0) { rk_set_error("stdout: write failed: %s", strerror(errno)); st = RK_EIO; }
		o->fp = 0;
		return st;
	}
	int bad = ferror(o->fp);
	if (fclose(o->fp) != 0 || bad) {
		rk_set_error("%s: write failed: %s", o->path, strerror(errno));
		unlink(o->tmp);
		st = RK_EIO;
	} else if (rename(o->tmp, o->path) != 0) {
		rk_set_error("%s: cannot rename from %s: %s", o->path, o->tmp, strerror(errno));
		unlink(o->tmp);
		st = RK_EIO;
	}
	o->fp = 0;
	free(o->path); free(o->tmp);
	o->path = o->tmp = 0;
	return st;
}

void rio_out_abort(rio_out_t *o)
{
	if (o->fp && o->fp != stdout) {
		fclose(o->fp);
		unlink(o->tmp);
	}
	o->fp = 0;
	free(o->path); free(o->tmp);
	o->path = o->tmp = 0;
}
