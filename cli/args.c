/* The shared command-line walk (args.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cli/args.h"
#include "cli/cli.h"
#include "util/mem.h"

void cli_args_init(cli_args *a, const char *cmd, int argc, char **argv, void (*usage)(FILE *f))
{
    memset(a, 0, sizeof *a);
    a->cmd = cmd;
    a->argc = argc;
    a->argv = argv;
    a->usage = usage;
    a->i = 1;
    a->files = xcalloc((size_t)(argc > 0 ? argc : 1) + 1, sizeof *a->files);
}

static int bad(cli_args *a)
{
    a->usage(stderr);
    return CLI_BAD;
}

/* The option S names, or NULL; *LEN is the length of its name in S. */
static const cli_opt *find(const cli_opt *opts, const char *s, size_t *len)
{
    const char *eq = strchr(s, '=');
    *len = eq && s[1] == '-' ? (size_t)(eq - s) : strlen(s);
    for (const cli_opt *o = opts; o->name; o++)
        if (strlen(o->name) == *len && !strncmp(o->name, s, *len))
            return o;
    return NULL;
}

int cli_next(cli_args *a, const cli_opt *opts, const char **value)
{
    while (a->i < a->argc) {
        const char *s = a->argv[a->i++];
        *value = NULL;
        if (a->files_only || s[0] != '-' || !s[1]) {
            a->files[a->nfiles++] = s;
            continue;
        }
        if (!strcmp(s, "--")) {
            a->files_only = true;
            continue;
        }
        if (!strcmp(s, "-h") || !strcmp(s, "--help")) {
            a->usage(stdout);
            return CLI_HELP;
        }
        size_t len;
        const cli_opt *o = find(opts, s, &len);
        if (!o) {
            fprintf(stderr, "%s: unknown option '%s'\n", a->cmd, s);
            return bad(a);
        }
        if (!o->value && s[len]) {
            fprintf(stderr, "%s: %.*s takes no value\n", a->cmd, (int)len, s);
            return bad(a);
        }
        if (o->value && s[len])
            *value = s + len + 1;
        else if (o->value && a->i < a->argc)
            *value = a->argv[a->i++];
        else if (o->value) {
            fprintf(stderr, "%s: %s needs a value\n", a->cmd, s);
            return bad(a);
        }
        if (o->str)
            *o->str = *value;
        else if (o->flag)
            *o->flag = true;
        else
            return o->id;
    }
    *value = NULL;
    return CLI_END;
}

int cli_stop(cli_args *a, int last)
{
    free(a->files);
    a->files = NULL;
    return last == CLI_HELP ? EXIT_OK : EXIT_USAGE;
}

int cli_parse(cli_args *a, const char *cmd, int argc, char **argv, void (*usage)(FILE *f), const cli_opt *opts,
              bool need_files)
{
    cli_args_init(a, cmd, argc, argv, usage);
    const char *v;
    int last;
    while ((last = cli_next(a, opts, &v)) > 0)
        ;
    if (last != CLI_END)
        return cli_stop(a, last);
    if (need_files && a->nfiles == 0) {
        fprintf(stderr, "%s: no input files\n", a->cmd);
        return cli_stop(a, bad(a));
    }
    return -1;
}

/* One loop for the two subcommands that take configurations, so that
 * both refuse the same excess the same way. */
int cli_walk_ccs(cli_args *a, const cli_opt *opts, cli_ccs *c)
{
    enum { ID_CC = 1, ID_CFLAGS };
    size_t n = 0;
    while (opts[n].name)
        n++;
    cli_opt *all = xcalloc(n + 3, sizeof *all);
    memcpy(all, opts, n * sizeof *all);
    all[n] = (cli_opt)CLI_ID("--cc", ID_CC, true);
    all[n + 1] = (cli_opt)CLI_ID("--cflags", ID_CFLAGS, true);
    memset(c, 0, sizeof *c);
    const char *v;
    int id;
    while ((id = cli_next(a, all, &v)) > 0) {
        const char **slot = id == ID_CC ? c->cc : c->cflags;
        int *cnt = id == ID_CC ? &c->ncc : &c->ncflags;
        /* a silent cap would drop configurations the user asked for */
        if (*cnt == CLI_MAX_CCS) {
            fprintf(stderr, "%s: more than %d %s options\n", a->cmd, CLI_MAX_CCS, id == ID_CC ? "--cc" : "--cflags");
            id = bad(a);
            break;
        }
        slot[(*cnt)++] = v;
    }
    free(all);
    if (id == CLI_END && !c->ncc) {
        c->cc[c->ncc++] = "cc";
        c->cc_default = true;
    }
    if (id == CLI_END && !c->ncflags)
        c->cflags[c->ncflags++] = "-O2";
    return id;
}

bool cli_parse_seconds(const char *v, double *seconds)
{
    char *end;
    errno = 0;
    double s = strtod(v, &end);
    if (errno || end == v || *end || !(s > 0) || s > 86400 * 7)
        return false;
    *seconds = s;
    return true;
}

void cli_verbs_list(FILE *f, const cli_verb *t, size_t n, int width)
{
    for (size_t i = 0; i < n; i++)
        fprintf(f, "  %-*s %s\n", width, t[i].name, t[i].summary);
}

const cli_verb *cli_verb_find(const cli_verb *t, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(name, t[i].name))
            return &t[i];
    return NULL;
}
