/* JUnit-style XML reports of run verdicts, built with libxml2 so that any
 * name or log text is escaped correctly.  CI systems read this format;
 * jcstress offers none. */
#include <errno.h>
#include <libxml/tree.h>
#include <libxml/xmlsave.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "harness/harness.h"
#include "util/file.h"
#include "util/utf8.h"

typedef struct report_case {
    char *test, *classname, *message, *detail;
    harness_result res;
    double seconds;
} report_case;

struct harness_report {
    char *suite;
    report_case *cases;
    size_t n, cap;
};

harness_report *harness_report_new(const char *suite)
{
    harness_report *r = xcalloc(1, sizeof *r);
    r->suite = xstrdup(suite);
    return r;
}

void harness_report_add(harness_report *r, const char *test, const char *classname,
                        harness_result res, const char *message, const char *detail,
                        double seconds)
{
    report_case c = {xstrdup(test), xstrdup(classname ? classname : "litmusc"),
                     xstrdup(message ? message : ""), detail ? xstrdup(detail) : NULL, res,
                     seconds};
    VEC_PUSH(r->cases, r->n, r->cap, c);
}

/* libxml2 passes through what XML 1.0 cannot hold, and a runner's stderr,
 * a compiler's message or a file name may contain it: control characters
 * become '?', and bytes that are no UTF-8 (0xFF), surrogates and the
 * non-characters U+FFFE and U+FFFF become U+FFFD, so the report stays
 * well-formed. */
static xmlChar *xml_text(const char *s)
{
    strbuf b = {0};
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        size_t n = utf8_seq_len(p);
        if (*p < 0x20 && *p != '\n' && *p != '\t' && *p != '\r')
            sb_addc(&b, '?');
        else if (n == 0 || (n == 3 && p[0] == 0xef && p[1] == 0xbf && (p[2] == 0xbe || p[2] == 0xbf)))
            sb_add(&b, "\xef\xbf\xbd");
        else
            sb_addn(&b, (const char *)p, n);
        p += n ? n : 1;
    }
    return (xmlChar *)sb_take(&b);
}

static void set_prop(xmlNodePtr n, const char *k, const char *v)
{
    xmlChar *t = xml_text(v);
    xmlNewProp(n, (const xmlChar *)k, t);
    free(t);
}

static xmlDocPtr build_doc(const harness_report *r)
{
    int fails = 0, errors = 0, skipped = 0;
    double total = 0;
    for (size_t i = 0; i < r->n; i++) {
        fails += r->cases[i].res == HARNESS_FAIL;
        errors += r->cases[i].res == HARNESS_ERROR;
        skipped += r->cases[i].res == HARNESS_SKIPPED;
        total += r->cases[i].seconds;
    }
    xmlDocPtr doc = xmlNewDoc((const xmlChar *)"1.0");
    xmlNodePtr root = xmlNewNode(NULL, (const xmlChar *)"testsuites");
    xmlDocSetRootElement(doc, root);
    xmlNodePtr suite = xmlNewChild(root, NULL, (const xmlChar *)"testsuite", NULL);
    char num[64];
    set_prop(suite, "name", r->suite);
    snprintf(num, sizeof num, "%zu", r->n);
    set_prop(suite, "tests", num);
    snprintf(num, sizeof num, "%d", fails);
    set_prop(suite, "failures", num);
    snprintf(num, sizeof num, "%d", errors);
    set_prop(suite, "errors", num);
    snprintf(num, sizeof num, "%d", skipped);
    set_prop(suite, "skipped", num);
    snprintf(num, sizeof num, "%.3f", total);
    set_prop(suite, "time", num);
    for (size_t i = 0; i < r->n; i++) {
        const report_case *c = &r->cases[i];
        xmlNodePtr tc = xmlNewChild(suite, NULL, (const xmlChar *)"testcase", NULL);
        set_prop(tc, "classname", c->classname);
        set_prop(tc, "name", c->test);
        snprintf(num, sizeof num, "%.3f", c->seconds);
        set_prop(tc, "time", num);
        const char *tag = c->res == HARNESS_FAIL ? "failure"
                          : c->res == HARNESS_ERROR ? "error"
                          : c->res == HARNESS_SKIPPED ? "skipped" : NULL;
        if (tag) {
            xmlNodePtr f = xmlNewChild(tc, NULL, (const xmlChar *)tag, NULL);
            set_prop(f, "message", c->message);
        }
        if (c->detail) {
            xmlChar *t = xml_text(c->detail);
            xmlNodePtr out = xmlNewChild(tc, NULL, (const xmlChar *)"system-out", NULL);
            xmlAddChild(out, xmlNewText(t));
            free(t);
        }
    }
    return doc;
}

/* libxml2 prints its own I/O errors; stages must not print, and the diag
 * says it all. */
static void quiet(void *ctx, const char *fmt, ...)
{
    (void)ctx;
    (void)fmt;
}

bool harness_report_write(const harness_report *r, const char *path, diag *d)
{
    xmlSetGenericErrorFunc(NULL, quiet);
    xmlDocPtr doc = build_doc(r);
    xmlChar *text = NULL;
    int n = 0;
    xmlDocDumpFormatMemoryEnc(doc, &text, &n, "UTF-8", 1);
    xmlFreeDoc(doc);
    bool ok = true;
    if (!text || n < 0)
        ok = diag_fail(d, "cannot write the XML report %s: out of memory", path);
    else if (!file_write_atomic(path, (const char *)text, (size_t)n))
        ok = diag_fail(d, "cannot write the XML report %s: %s", path, strerror(errno));
    xmlFree(text);
    return ok;
}

void harness_report_free(harness_report *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->n; i++) {
        free(r->cases[i].test);
        free(r->cases[i].classname);
        free(r->cases[i].message);
        free(r->cases[i].detail);
    }
    free(r->cases);
    free(r->suite);
    free(r);
}
