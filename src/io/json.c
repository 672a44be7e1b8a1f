/* A small JSON reader (json.h): recursive descent over the text, a tree of rio_json_t. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include "io/json.h"

typedef struct {
	const char *s;
	size_t n, i;
	int depth;
} jp_t;

static rk_status_t jp_fail(const jp_t *p, const char *what)
{
	rk_set_error("not JSON: %s at byte %zu", what, p->i);
	return RK_EINPUT;
}

static void jp_ws(jp_t *p)
{
	while (p->i < p->n && (p->s[p->i] == ' ' || p->s[p->i] == '\t' || p->s[p->i] == '\n' || p->s[p->i] == '\r')) p->i++;
}

static rk_status_t jp_value(jp_t *p, rio_json_t *v);

/* a string's text after its opening quote, unescaped into a new buffer */
static rk_status_t jp_string(jp_t *p, char **out)
{
	size_t e = p->i, l = 0;
	while (e < p->n && p->s[e] != '"') e += p->s[e] == '\\' ? 2 : 1;   /* its length first: unescaping only shortens */
	char *b = malloc((e < p->n ? e : p->n) - p->i + 1);
	if (!b) { rk_set_error("out of memory reading JSON"); return RK_ERES; }
	while (p->i < p->n && p->s[p->i] != '"') {
		char c = p->s[p->i++];
		if ((unsigned char)c < 0x20) { free(b); return jp_fail(p, "a control character in a string"); }
		if (c == '\\') {
			if (p->i >= p->n) break;
			c = p->s[p->i++];
			switch (c) {
			case 'n': c = '\n'; break;
			case 't': c = '\t'; break;
			case 'r': c = '\r'; break;
			case 'b': c = '\b'; break;
			case 'f': c = '\f'; break;
			case 'u': {
				unsigned x = 0;
				for (int k = 0; k < 4; k++, p->i++) {
					const char h = p->i < p->n ? p->s[p->i] : 0;
					const int d = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10 : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
					if (d < 0) { free(b); return jp_fail(p, "a bad \\u escape"); }
					x = x * 16 + (unsigned)d;
				}
				c = x < 0x80 ? (char)x : '?';
				break;
			}
			case '"': case '\\': case '/': break;
			default: free(b); return jp_fail(p, "a bad escape");
			}
		}
		b[l++] = c;
	}
	if (p->i >= p->n) { free(b); return jp_fail(p, "an unterminated string"); }
	p->i++;
	b[l] = 0;
	*out = b;
	return RK_OK;
}

/* the members of an array or object after its opening bracket */
static rk_status_t jp_members(jp_t *p, rio_json_t *v, int obj)
{
	const char close = obj ? '}' : ']';
	int cap = 0;
	rk_status_t st;
	jp_ws(p);
	if (p->i < p->n && p->s[p->i] == close) { p->i++; return RK_OK; }
	for (;;) {
		if (v->n == cap) {
			cap = cap ? 2 * cap : 8;
			rio_json_t *k = realloc(v->kids, sizeof *k * (size_t)cap);
			char **ks = obj ? realloc(v->keys, sizeof *ks * (size_t)cap) : 0;
			if (k) v->kids = k;
			if (ks) v->keys = ks;
			if (!k || (obj && !ks)) { rk_set_error("out of memory reading JSON"); return RK_ERES; }
		}
		memset(&v->kids[v->n], 0, sizeof v->kids[0]);
		if (obj) {
			v->keys[v->n] = 0;
			jp_ws(p);
			if (p->i >= p->n || p->s[p->i] != '"') return jp_fail(p, "an object key expected");
			p->i++;
			v->n++;   /* counted before its parts, so that a failure frees what it has */
			if ((st = jp_string(p, &v->keys[v->n - 1]))) return st;
			jp_ws(p);
			if (p->i >= p->n || p->s[p->i] != ':') return jp_fail(p, "':' expected");
			p->i++;
		} else v->n++;
		if ((st = jp_value(p, &v->kids[v->n - 1]))) return st;
		jp_ws(p);
		if (p->i < p->n && p->s[p->i] == ',') { p->i++; continue; }
		if (p->i < p->n && p->s[p->i] == close) { p->i++; return RK_OK; }
		return jp_fail(p, obj ? "',' or '}' expected" : "',' or ']' expected");
	}
}

static rk_status_t jp_word(jp_t *p, const char *w)
{
	const size_t l = strlen(w);
	if (p->n - p->i < l || memcmp(p->s + p->i, w, l)) return jp_fail(p, "a value expected");
	p->i += l;
	return RK_OK;
}

static rk_status_t jp_value(jp_t *p, rio_json_t *v)
{
	rk_status_t st = RK_OK;
	jp_ws(p);
	if (p->i >= p->n) return jp_fail(p, "a value expected (the text ends)");
	const char c = p->s[p->i];
	if (c == '{' || c == '[') {
		if (++p->depth > RIO_JSON_DEPTH) return jp_fail(p, "nesting too deep");
		p->i++;
		v->type = c == '{' ? RIO_JSON_OBJ : RIO_JSON_ARR;
		st = jp_members(p, v, c == '{');
		p->depth--;
		return st;
	}
	if (c == '"') { p->i++; v->type = RIO_JSON_STR; return jp_string(p, &v->str); }
	if (c == 't' || c == 'f') { v->type = RIO_JSON_BOOL; v->num = c == 't'; return jp_word(p, c == 't' ? "true" : "false"); }
	if (c == 'n') { v->type = RIO_JSON_NULL; return jp_word(p, "null"); }
	if (c == '-' || (c >= '0' && c <= '9')) {
		char buf[64];
		size_t l = 0;
		while (p->i + l < p->n && l < sizeof buf - 1 && strchr("+-.eE0123456789", p->s[p->i + l])) { buf[l] = p->s[p->i + l]; l++; }
		buf[l] = 0;
		char *e;
		errno = 0;
		v->num = strtod(buf, &e);
		if (e == buf || *e || errno == ERANGE) return jp_fail(p, "a bad number");
		v->type = RIO_JSON_NUM;
		p->i += l;
		return RK_OK;
	}
	return jp_fail(p, "a value expected");
}

rk_status_t rio_json_parse(const char *text, size_t len, rio_json_t *out)
{
	jp_t p = { text, len, 0, 0 };
	memset(out, 0, sizeof *out);
	rk_status_t st = jp_value(&p, out);
	if (st) return st;
	jp_ws(&p);
	return p.i == p.n ? RK_OK : jp_fail(&p, "text after the value");
}

rk_status_t rio_json_read_file(const char *path, rio_json_t *out)
{
	memset(out, 0, sizeof *out);
	FILE *fp = fopen(path, "rb");
	if (!fp) { rk_set_error("%s: %s", path, strerror(errno)); return RK_EINPUT; }
	char *b = malloc(RIO_JSON_MAX_BYTES + 1);
	size_t n = b ? fread(b, 1, RIO_JSON_MAX_BYTES + 1, fp) : 0;
	const int bad = ferror(fp);
	fclose(fp);
	if (!b) { rk_set_error("out of memory reading %s", path); return RK_ERES; }
	rk_status_t st = RK_EINPUT;
	if (bad) rk_set_error("%s: cannot be read", path);
	else if (n > RIO_JSON_MAX_BYTES) rk_set_error("%s: over %d bytes", path, RIO_JSON_MAX_BYTES);
	else if ((st = rio_json_parse(b, n, out)) != RK_OK) {
		char why[256];
		snprintf(why, sizeof why, "%s", rk_error());
		rk_set_error("%s: %s", path, why);
	}
	free(b);
	return st;
}

void rio_json_free(rio_json_t *v)
{
	if (!v) return;
	for (int i = 0; i < v->n; i++) {
		rio_json_free(&v->kids[i]);
		if (v->keys) free(v->keys[i]);
	}
	free(v->kids); free(v->keys); free(v->str);
	memset(v, 0, sizeof *v);
}

const rio_json_t *rio_json_get(const rio_json_t *v, const char *key)
{
	if (!v || v->type != RIO_JSON_OBJ) return 0;
	for (int i = 0; i < v->n; i++)
		if (v->keys[i] && !strcmp(v->keys[i], key)) return &v->kids[i];
	return 0;
}

double rio_json_num(const rio_json_t *v, double dflt)
{
	return v && v->type == RIO_JSON_NUM ? v->num : dflt;
}

const char *rio_json_str(const rio_json_t *v)
{
	return v && v->type == RIO_JSON_STR ? v->str : 0;
}
