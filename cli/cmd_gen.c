/* litmusc gen: litmus tests from cycles of relaxations (gen/gen.h).
 *
 *   litmusc gen --arch A [-o FILE] EDGE...         one test, as diyone7 -norm
 *   litmusc gen --arch A --size N --relax L ... -o DIR   every cycle, as diy7
 *
 * The enumeration writes DIR/NAME.litmus for each test, then `@all` (the
 * file names, which herd7 and litmus7 read as a test list) and
 * `index.tsv` (name, file, threads, cycle, relaxations, safe edges). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/args.h"
#include "cli/cli.h"
#include "gen/gen.h"
#include "util/file.h"
#include "util/mem.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: litmusc gen --arch X86|C|Java [-o FILE] [--name NAME] EDGE...\n"
            "       litmusc gen --arch X86|C|Java --size N [--relax LIST] [--safe LIST]\n"
            "                   [--nprocs N] [--eprocs] [--max-ins N] [--mode default|critical|sc]\n"
            "                   [--mix] [--min-relax N] [--max-relax N] [--varatom LIST]\n"
            "                   [--filter REGEX] -o DIR\n"
            "       litmusc gen --arch X86|C|Java --list\n"
            "       litmusc gen --arch C --vocabulary\n"
            "\n"
            "Generate litmus tests from cycles of relaxations, in diy7's vocabulary: one\n"
            "test for the cycle EDGE... (as diyone7 -norm), or every cycle of at most N edges\n"
            "built from LIST (as diy7), one file per test in DIR.\n"
            "\n"
            "  --arch A       X86, C or Java\n"
            "  -o FILE|DIR    write the test to FILE (default: stdout); the enumeration's folder\n"
            "  --name NAME    name the single test NAME instead of diy7's name for its cycle\n"
            "  --keep-order   keep the cycle as given instead of diy7's normal form\n"
            "  --size N       longest cycle to enumerate (edges)\n"
            "  --relax LIST   relaxations: every test contains at least one (comma or space\n"
            "                 separated; [E1,E2] is a sequence of edges taken as one)\n"
            "  --safe LIST    edges the cycles are completed with\n"
            "  --nprocs N     at most N threads (default 4); --eprocs: exactly N\n"
            "  --max-ins N    at most N events per thread (default 4)\n"
            "  --mode M       default, critical or sc: which neighbouring edges may meet (diy7 -mode)\n"
            "  --mix          a cycle may contain several different relaxations\n"
            "  --min-relax N, --max-relax N   how many relaxations a cycle contains\n"
            "  --varatom LIST try each annotation of LIST wherever an edge leaves one open\n"
            "                 (\"all\": every annotation and none)\n"
            "  --filter REGEX keep tests whose name matches the PCRE2 pattern\n"
            "  --list         the edge names ARCH knows (annotations go after them)\n"
            "  --vocabulary   every fully annotated C edge, one a line (what a sampler draws from)\n"
            "\n"
            "Edges: Rfe Rfi Fre Fri Coe Coi (Wse Wsi), Pod** Pos** (WR WW RR RW, * for either),\n"
            "fences (X86 MFenced**; C Fence{Acq,Rel,AR,Sc,Rlx,Con}d**; Java Fence{Full,Acq,Rel,\n"
            "LL,SS}d**; Fenced** is the strongest), dependencies DpAddrd* DpDatadW DpCtrld*\n"
            "(C; Java has no address dependency), Rmw (X86: XCHG; C: see below).\n"
            "Annotations follow the edge, source then target: X86 A (atomic write), Na;\n"
            "C Rlx Acq Rel Sc Con Na (plain); Java Pl (plain) Op (opaque) Acq Rel Vo (volatile).\n"
            "  e.g. PodWWRlxRel RfeRelAcq PodRRAcqRlx FreRlxRlx\n"
            "\n"
            "C read-modify-writes (beyond diy7, whose C Rmw prints no test):\n"
            "  Rmw, Exch      the read and write of int r = atomic_exchange_explicit(x,v,MO);\n"
            "  RmwAdd RmwSub RmwAnd RmwOr RmwXor   atomic_fetch_OP_explicit(x,k,MO), k taking x\n"
            "                 from the value read to the value written (an or's location holds\n"
            "                 0 1 3, an and's starts at 3 or 7 and loses a bit a write)\n"
            "  RmwCas RmwCasW int r = atomic_compare_exchange_{strong,weak}_explicit(x,cP_K,v,MO,\n"
            "                 FAIL), cP_K an int* holding the value read; r=1 in the condition\n"
            "  ...Ig          the result is not kept: no int r =, the final value of x tells\n"
            "                 the order (refused where it cannot); not for Cas\n"
            "  the annotations read, write give MO: RlxRlx relaxed, AcqRlx acquire, ConRlx\n"
            "  consume, RlxRel release, AcqRel acq_rel, ScSc seq_cst (RmwAddAcqRel); a CAS may\n"
            "  add its failure order (RmwCasAcqRelRlx; default: C's, acq_rel->acquire,\n"
            "  release->relaxed)\n"
            "Access fences: an atomic access between two others, where a fence would be:\n"
            "  Fence OP [Id] [Ig] MO [FAIL] [Sh] d|s XY, OP Xchg Add Sub And Or Xor Cas CasW Ld\n"
            "  St on atomic_int* fP (the thread's own) or fs (Sh: shared by every thread's Sh\n"
            "  fences); Id: an operand that leaves the value (+0 -0 |0 ^0 &-1, the value held);\n"
            "  e.g. FenceAddIgScShdWR: atomic_fetch_add_explicit(fs,1,memory_order_seq_cst);\n"
            "  A kept result on fP goes in the condition, its value known.\n"
            "\n"
            "exit status: 0 done, 2 bad edge, cycle or option (nothing is written),\n"
            "3 a file could not be written\n"
            "example: litmusc gen --arch X86 PodWR Fre PodWR Fre\n");
}

/* Split "A,B C" into words; brackets keep their commas ("[Rfi,PodRR]"). */
static void split_list(const char *s, char ***out, int *n, int *cap)
{
    while (*s) {
        while (*s == ' ' || *s == ',' || *s == '\t' || *s == '\n')
            s++;
        if (!*s)
            break;
        const char *b = s;
        int depth = 0;
        while (*s && (depth > 0 || (*s != ' ' && *s != ',' && *s != '\t' && *s != '\n'))) {
            depth += *s == '[' ? 1 : *s == ']' ? -1 : 0;
            s++;
        }
        char *w = xstrndup(b, (size_t)(s - b));
        if (*n == *cap) {
            *cap = *cap ? 2 * *cap : 8;
            *out = xrealloc(*out, (size_t)*cap * sizeof **out);
        }
        (*out)[(*n)++] = w;
    }
}

static void free_words(char **w, int n)
{
    for (int i = 0; i < n; i++)
        free(w[i]);
    free(w);
}

static int report(const diag *d)
{
    char msg[DIAG_MSG_MAX + 300];
    diag_format(d, msg, sizeof msg);
    fprintf(stderr, "litmusc gen: %s\n", msg);
    return d->status ? d->status : EXIT_USAGE;
}

static bool parse_count(const char *v, int lo, int *out)
{
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (errno || end == v || *end || x < lo || x > 1000)
        return false;
    *out = (int)x;
    return true;
}

typedef struct collected {
    gen_test *tests;
    char **relax, **safe;
    size_t n, cap;
} collected;

static bool collect(void *ctx, gen_test *t, const char *relax_used, const char *safe_used)
{
    collected *c = ctx;
    if (c->n == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 64;
        c->tests = xrealloc(c->tests, c->cap * sizeof *c->tests);
        c->relax = xrealloc(c->relax, c->cap * sizeof *c->relax);
        c->safe = xrealloc(c->safe, c->cap * sizeof *c->safe);
    }
    c->tests[c->n] = *t;
    c->relax[c->n] = xstrdup(relax_used);
    c->safe[c->n] = xstrdup(safe_used);
    c->n++;
    return true;
}

static int write_failed(const char *path)
{
    fprintf(stderr, "litmusc gen: cannot write %s: %s\n", path, strerror(errno));
    return EXIT_INTERNAL;
}

/* Every test into DIR, then @all and index.tsv; the tests were all made
 * before the first file is written, so bad input never leaves files. */
static int write_folder(const char *dir, const collected *c)
{
    if (!file_mkdirs(dir, 0777))
        return write_failed(dir);
    strbuf all = {0}, index = {0};
    sb_add(&index, "name\tfile\tthreads\tcycle\trelax\tsafe\n");
    int status = EXIT_OK;
    for (size_t i = 0; i < c->n && status == EXIT_OK; i++) {
        const gen_test *t = &c->tests[i];
        char *file = xasprintf("%s.litmus", t->name);
        char *path = xasprintf("%s/%s", dir, file);
        if (!file_write_atomic(path, t->text, strlen(t->text)))
            status = write_failed(path);
        sb_printf(&all, "%s\n", file);
        sb_printf(&index, "%s\t%s\t%d\t%s\t%s\t%s\n", t->name, file, t->nprocs, t->cycle, c->relax[i], c->safe[i]);
        free(file);
        free(path);
    }
    if (status == EXIT_OK) {
        char *p = xasprintf("%s/@all", dir);
        if (!file_write_atomic(p, all.s ? all.s : "", all.len))
            status = write_failed(p);
        free(p);
        p = xasprintf("%s/index.tsv", dir);
        if (status == EXIT_OK && !file_write_atomic(p, index.s, index.len))
            status = write_failed(p);
        free(p);
    }
    sb_free(&all);
    sb_free(&index);
    return status;
}

static int enumerate(gen_enum_opts *eo, const char *out)
{
    if (!out) {
        fprintf(stderr, "litmusc gen: --size needs -o DIR, the folder the tests go to\n");
        return EXIT_USAGE;
    }
    collected c = {0};
    diag d = {0};
    int status = EXIT_OK;
    if (!gen_enumerate(eo, collect, &c, &d))
        status = report(&d);
    else
        status = write_folder(out, &c);
    if (status == EXIT_OK)
        fprintf(stderr, "litmusc gen: %zu tests in %s\n", c.n, out);
    for (size_t i = 0; i < c.n; i++) {
        gen_test_free(&c.tests[i]);
        free(c.relax[i]);
        free(c.safe[i]);
    }
    free(c.tests);
    free(c.relax);
    free(c.safe);
    return status;
}

int cmd_gen(int argc, char **argv)
{
    enum { O_ARCH = 1, O_OUT, O_NAME, O_KEEP, O_SIZE, O_RELAX, O_SAFE, O_NPROCS, O_EPROCS, O_MAXINS,
           O_MODE, O_MIX, O_MINR, O_MAXR, O_FILTER, O_LIST, O_VARATOM, O_VOCAB };
    static const cli_opt opts[] = {
        CLI_ID("--arch", O_ARCH, true), CLI_ID("-arch", O_ARCH, true), CLI_ID("-o", O_OUT, true),
        CLI_ID("--name", O_NAME, true), CLI_ID("--keep-order", O_KEEP, false), CLI_ID("--size", O_SIZE, true),
        CLI_ID("-size", O_SIZE, true), CLI_ID("--relax", O_RELAX, true), CLI_ID("-relax", O_RELAX, true),
        CLI_ID("--safe", O_SAFE, true), CLI_ID("-safe", O_SAFE, true), CLI_ID("--nprocs", O_NPROCS, true),
        CLI_ID("-nprocs", O_NPROCS, true), CLI_ID("--eprocs", O_EPROCS, false), CLI_ID("-eprocs", O_EPROCS, false),
        CLI_ID("--max-ins", O_MAXINS, true), CLI_ID("-ins", O_MAXINS, true), CLI_ID("--mode", O_MODE, true),
        CLI_ID("-mode", O_MODE, true), CLI_ID("--mix", O_MIX, false), CLI_ID("--min-relax", O_MINR, true),
        CLI_ID("--max-relax", O_MAXR, true), CLI_ID("--filter", O_FILTER, true), CLI_ID("--list", O_LIST, false),
        CLI_ID("--varatom", O_VARATOM, true), CLI_ID("-varatom", O_VARATOM, true),
        CLI_ID("--vocabulary", O_VOCAB, false), {0}};
    cli_args it;
    cli_args_init(&it, "litmusc gen", argc, argv, usage);
    const char *v, *arch_name = NULL, *out = NULL, *name = NULL, *filter = NULL;
    bool keep = false, list = false, vocab = false;
    gen_enum_opts eo = {.size = 0, .nprocs = 4, .max_ins = 4, .min_relax = 1, .max_relax = 100};
    char **relax = NULL, **safe = NULL, **varatom = NULL;
    int nrelax = 0, crelax = 0, nsafe = 0, csafe = 0, nvar = 0, cvar = 0;
    int status = EXIT_OK, id;
    bool size_given = false;
    while ((id = cli_next(&it, opts, &v)) > 0 && status == EXIT_OK) {
        const char *bad = NULL;
        switch (id) {
        case O_ARCH: arch_name = v; break;
        case O_OUT: out = v; break;
        case O_NAME: name = v; break;
        case O_KEEP: keep = true; break;
        case O_SIZE: size_given = true; if (!parse_count(v, 1, &eo.size)) bad = "--size"; break;
        case O_RELAX: split_list(v, &relax, &nrelax, &crelax); break;
        case O_SAFE: split_list(v, &safe, &nsafe, &csafe); break;
        case O_NPROCS: if (!parse_count(v, 1, &eo.nprocs)) bad = "--nprocs"; break;
        case O_EPROCS: eo.eprocs = true; break;
        case O_MAXINS: if (!parse_count(v, 1, &eo.max_ins)) bad = "--max-ins"; break;
        case O_MIX: eo.mix = true; break;
        case O_MINR: if (!parse_count(v, 0, &eo.min_relax)) bad = "--min-relax"; break;
        case O_MAXR: if (!parse_count(v, 0, &eo.max_relax)) bad = "--max-relax"; break;
        case O_FILTER: filter = v; break;
        case O_LIST: list = true; break;
        case O_VOCAB: vocab = true; break;
        case O_VARATOM: split_list(v, &varatom, &nvar, &cvar); break;
        case O_MODE:
            if (!strcmp(v, "default")) eo.mode = GEN_MODE_DEFAULT;
            else if (!strcmp(v, "critical")) eo.mode = GEN_MODE_CRITICAL;
            else if (!strcmp(v, "sc")) eo.mode = GEN_MODE_SC;
            else bad = "--mode";
            break;
        }
        if (bad) {
            fprintf(stderr, "litmusc gen: error: %s '%s': %s\n", bad, v,
                    !strcmp(bad, "--mode") ? "expected default, critical or sc" : "expected a positive number");
            status = EXIT_USAGE;
        }
    }
    if (status == EXIT_OK && id != CLI_END) {
        free_words(relax, nrelax);
        free_words(safe, nsafe);
        free_words(varatom, nvar);
        return cli_stop(&it, id);
    }
    gen_arch_id arch = GEN_X86;
    if (status == EXIT_OK && !arch_name) {
        fprintf(stderr, "litmusc gen: error: --arch X86|C|Java is required\n");
        status = EXIT_USAGE;
    } else if (status == EXIT_OK && !gen_arch_parse(arch_name, &arch)) {
        fprintf(stderr, "litmusc gen: error: unknown --arch '%s' (X86, C or Java)\n", arch_name);
        status = EXIT_USAGE;
    }
    if (status == EXIT_OK && size_given && eo.size < 1) {
        fprintf(stderr, "litmusc gen: error: --size must be at least 1\n");
        status = EXIT_USAGE;
    }
    if (status == EXIT_OK && vocab && arch != GEN_C) {
        fprintf(stderr, "litmusc gen: error: --vocabulary is for --arch C\n");
        status = EXIT_USAGE;
    }
    if (status == EXIT_OK && vocab) {
        char *l = gen_c_vocabulary();
        for (char *p = l; *p; p++)
            if (*p == ' ')
                *p = '\n';
        printf("%s\n", l);
        free(l);
    } else if (status == EXIT_OK && list) {
        char *l = gen_edge_list(arch);
        printf("%s\n", l);
        free(l);
    } else if (status == EXIT_OK && size_given) {
        eo.arch = arch;
        eo.relax = (const char *const *)relax;
        eo.nrelax = nrelax;
        eo.safe = (const char *const *)safe;
        eo.nsafe = nsafe;
        eo.filter = filter;
        eo.varatom = (const char *const *)varatom;
        eo.nvaratom = nvar;
        if (it.nfiles > 0) {
            fprintf(stderr, "litmusc gen: error: edges after --size: give them with --relax or --safe\n");
            status = EXIT_USAGE;
        } else
            status = enumerate(&eo, out);
    } else if (status == EXIT_OK) {
        char **edges = NULL;
        int n = 0, cap = 0;
        for (int i = 0; i < it.nfiles; i++)
            split_list(it.files[i], &edges, &n, &cap);
        if (n == 0) {
            fprintf(stderr, "litmusc gen: error: no edges: give a cycle (e.g. PodWR Fre PodWR Fre) or --size\n");
            status = EXIT_USAGE;
        } else {
            gen_one_opts o = {.name = name, .keep_order = keep};
            gen_test t;
            diag d = {0};
            if (!gen_one(arch, (const char *const *)edges, n, &o, &t, &d))
                status = report(&d);
            else if (out) {
                if (!file_write_atomic(out, t.text, strlen(t.text)))
                    status = write_failed(out);
            } else
                fputs(t.text, stdout);
            gen_test_free(&t);
        }
        free_words(edges, n);
    }
    free_words(relax, nrelax);
    free_words(safe, nsafe);
    free_words(varatom, nvar);
    free(it.files);
    return status;
}
