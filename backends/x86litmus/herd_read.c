/* Reading herd7's verdict on a compiled test back in source names: the
 * "States k" block lists final states on x86 registers (`0:EAX=1;`) and
 * memory (`[x]=1;`, or `x=1;` in older logs); the register map says which
 * x86 register holds which source register. */
#include <stdlib.h>
#include <string.h>
#include "backends/x86litmus/x86litmus.h"
#include "util/mem.h"

/* Value text: decimal, 0x hex, or a location name (an address). */
static bool parse_val(const ir_test *t, const char *s, size_t n, ir_val *out)
{
    char buf[96];
    if (n == 0 || n >= sizeof buf)
        return false;
    memcpy(buf, s, n);
    buf[n] = 0;
    char *end;
    long long v = strtoll(buf, &end, 0);
    if (*end == 0) {
        *out = v;
        return true;
    }
    int l = ir_find_loc(t, buf);
    if (l < 0)
        return false;
    *out = IR_ADDR(l);
    return true;
}

/* Value of item KEY ("0:EAX", "[x]") on a state line, if present. */
static bool find_item(const ir_test *t, const char *line, const char *key, const char *alt, ir_val *out)
{
    const char *p = line;
    while (*p) {
        while (*p == ' ' || *p == '\t')
            p++;
        const char *eq = strchr(p, '=');
        const char *semi = strchr(p, ';');
        if (!eq || !semi || semi < eq)
            return false;
        size_t kl = (size_t)(eq - p);
        if ((strlen(key) == kl && !strncmp(p, key, kl)) || (alt && strlen(alt) == kl && !strncmp(p, alt, kl)))
            return parse_val(t, eq + 1, (size_t)(semi - eq - 1), out);
        p = semi + 1;
    }
    return false;
}

bset *x86litmus_read_herd(const char *out, const x86_prog *p, const ir_obs *obs, int nobs, diag *d)
{
    const char *s = strstr(out, "\nStates ");
    if (!s && !strncmp(out, "States ", 7))
        s = out - 1;
    if (!s) {
        diag_fail(d, "herd7 printed no 'States' block for %s", p->source->name);
        return NULL;
    }
    int k = atoi(s + 8);
    const char *line = strchr(s + 1, '\n');
    bset *b = xcalloc(1, sizeof *b);
    b->nobs = nobs;
    b->obs = xcalloc((size_t)nobs + 1, sizeof *b->obs);
    for (int i = 0; i < nobs; i++) {
        b->obs[i] = obs[i];
        if (obs[i].reg)
            b->obs[i].reg = xstrdup(obs[i].reg);
    }
    b->states = xcalloc((size_t)k + 1, sizeof *b->states);
    for (int st = 0; st < k; st++) {
        if (!line) {
            diag_fail(d, "herd7's output for %s ends inside its States block", p->source->name);
            bset_free(b);
            return NULL;
        }
        line++;
        const char *eol = strchr(line, '\n');
        char *text = eol ? xstrndup(line, (size_t)(eol - line)) : xstrdup(line);
        ir_val *vals = xcalloc((size_t)nobs + 1, sizeof *vals);
        for (int i = 0; i < nobs; i++) {
            char key[128], alt[128];
            const char *use_alt = NULL;
            if (obs[i].kind == IR_OBS_MEM) {
                snprintf(key, sizeof key, "[%s]", p->target->locs[obs[i].loc].name);
                snprintf(alt, sizeof alt, "%s", p->target->locs[obs[i].loc].name);
                use_alt = alt;
            } else {
                x86_reg r = x86_prog_lookup(p, obs[i].thread, obs[i].reg);
                snprintf(key, sizeof key, "%d:%s", obs[i].thread, x86_prog_reg_name(p, r));
            }
            if (!find_item(p->target, text, key, use_alt, &vals[i])) {
                diag_fail(d, "herd7's state '%s' for %s has no value for %s", text, p->source->name, key);
                free(text);
                free(vals);
                bset_free(b);
                return NULL;
            }
        }
        b->states[b->nstates].vals = vals;
        b->states[b->nstates].cond = ir_cond_eval(p->source->cond, obs, vals, nobs);
        b->nstates++;
        free(text);
        line = eol;
    }
    return b;
}
