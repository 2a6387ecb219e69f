/* The instruction-set table: one row per machine dialect, in ISA_LIST's
 * order (the order of fe_arch and ir_arch).  See isa.h. */
#include <string.h>
#include "isa/isa.h"

static const isa rows[ISA_COUNT] = {
    [ISA_X86] = {
        .id = ISA_X86, .name = "X86", .att = false, .wide = false, .acc = "EAX",
        .model = "x86tso", .native = "x86", .all_atomic = true,
    },
    [ISA_X86_64] = {
        .id = ISA_X86_64, .name = "X86_64", .att = true, .wide = true, .acc = "rax",
        .model = "x86tso", .native = "x86", .all_atomic = true,
    },
    /* No native runner: litmusc runs on x86 machines only, and an AArch64
     * test's instructions mean nothing there.  Every access is a machine
     * access, with no data race in the C sense. */
    [ISA_AARCH64] = {
        .id = ISA_AARCH64, .name = "AArch64", .att = false, .wide = true, .acc = "X0",
        .model = "aarch64", .native = NULL, .all_atomic = true, .typed_state = true,
    },
};

/* Architecture values past the instruction sets are the source languages. */
const isa *isa_of(int arch)
{
    return arch >= 0 && arch < ISA_COUNT ? &rows[arch] : NULL;
}

/* Header lookup: herd matches the architecture name exactly. */
const isa *isa_named(const char *name, size_t n)
{
    for (int i = 0; i < ISA_COUNT; i++)
        if (strlen(rows[i].name) == n && !memcmp(rows[i].name, name, n))
            return &rows[i];
    return NULL;
}

/* A source language's accesses carry their own modes: false. */
bool isa_all_atomic(int arch)
{
    const isa *i = isa_of(arch);
    return i && i->all_atomic;
}

/* The caller names the source languages' runner: this table knows only
 * the machines. */
const char *isa_native_target(int arch, const char *otherwise)
{
    const isa *i = isa_of(arch);
    return i && i->native ? i->native : otherwise;
}

/* Bounds-checked so a caller's loop cannot run off the table. */
const isa *isa_at(int i)
{
    return i >= 0 && i < ISA_COUNT ? &rows[i] : NULL;
}
