/* native_generate: pick the target's thread-body writer; the runtime
 * sources come from the embedded runtime/ folder. */
#include <string.h>
#include "backends/native/native_internal.h"
#include "backends/c11/c11.h"
#include "backends/x86native/x86native.h"

void native_opts_init(native_opts *o)
{
    memset(o, 0, sizeof *o);
    o->target = NATIVE_C11;
}

char *native_generate(const ir_test *t, const native_opts *o, diag *d)
{
    native_opts defaults;
    if (!o) {
        native_opts_init(&defaults);
        o = &defaults;
    }
    if (o->target == NATIVE_X86)
        return x86native_generate(t, o, d);
    return c11_generate(t, o, d);
}

const embed_file *native_runtime_file(int i)
{
    int k = 0;
    for (const embed_file *f = embed_files; f->path; f++)
        if (!strncmp(f->path, "runtime/", 8) && k++ == i)
            return f;
    return NULL;
}
