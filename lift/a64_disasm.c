/* LLVM's MC disassembler through its C API, for AArch64 objects.  LLVM
 * decodes every extension compilers emit for -march up to armv8.5-a (LSE's
 * SWPAL, CASAL, LDADDAL; RCpc's LDAPR), which Capstone 4 cannot; its text
 * ("\tldaxr\tw1, [x0]") is split into mnemonic and operands here, and
 * a64_ops.c reads the operands.  A build without LLVM (no llvm-config at
 * build time) refuses, naming what it lacks. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "lift/a64.h"

#ifdef LITMUSC_HAVE_LLVM
#include <pthread.h>
#include <llvm-c/Disassembler.h>
#include "util/dynlib.h"

/* libLLVM is loaded on the first AArch64 object, not linked: its half a
 * million relocations cost every litmusc process about 70 ms of CPU at
 * start-up, and only cc-check and hunt for AArch64 decode with it.
 * LITMUSC_LLVM_LIB is the library llvm-config named at build time. */
enum { INIT_INFO, INIT_MC, INIT_DISASM, CREATE, DECODE, DISPOSE, NFNS };
static const char *const llvm_names[NFNS] = {
    "LLVMInitializeAArch64TargetInfo", "LLVMInitializeAArch64TargetMC",
    "LLVMInitializeAArch64Disassembler", "LLVMCreateDisasmCPUFeatures",
    "LLVMDisasmInstruction", "LLVMDisasmDispose",
};
static void (*llvm_fns[NFNS])(void);
static char llvm_error[400];
static pthread_once_t llvm_once = PTHREAD_ONCE_INIT;

typedef LLVMDisasmContextRef create_fn(const char *, const char *, const char *, void *, int,
                                       LLVMOpInfoCallback, LLVMSymbolLookupCallback);
typedef size_t decode_fn(LLVMDisasmContextRef, uint8_t *, uint64_t, uint64_t, char *, size_t);
typedef void dispose_fn(LLVMDisasmContextRef);

static void llvm_load(void)
{
    if (!dynlib_load(LITMUSC_LLVM_LIB, llvm_names, llvm_fns, NFNS, llvm_error, sizeof llvm_error))
        return;
    llvm_fns[INIT_INFO]();
    llvm_fns[INIT_MC]();
    llvm_fns[INIT_DISASM]();
}

/* "\tmnem\tops" (or "\tmnem") into IN's fields, the mnemonic in lower case. */
static void split_text(const char *s, a64_insn *in)
{
    while (*s == '\t' || *s == ' ')
        s++;
    size_t k = 0;
    while (*s && *s != '\t' && *s != ' ' && k + 1 < sizeof in->mnem)
        in->mnem[k++] = (char)tolower((unsigned char)*s++);
    in->mnem[k] = 0;
    while (*s == '\t' || *s == ' ')
        s++;
    size_t n = strlen(s);
    if (n >= sizeof in->ops)
        n = sizeof in->ops - 1;     /* no AArch64 instruction's operands are that long */
    memcpy(in->ops, s, n);
    in->ops[n] = 0;
}

a64_insn *a64_disasm(const unsigned char *code, size_t size, int *n, size_t *bad, diag *d)
{
    *n = 0;
    *bad = size;
    pthread_once(&llvm_once, llvm_load);
    if (llvm_error[0]) {
        diag_fail(d, "cc-check: cannot load LLVM's AArch64 disassembler: %s", llvm_error);
        return NULL;
    }
    /* the features of every -march cc-check is given, so that each is decoded */
    LLVMDisasmContextRef dc =
        ((create_fn *)llvm_fns[CREATE])("aarch64-linux-gnu", "generic", "+v8.5a,+lse,+rcpc", NULL, 0, NULL, NULL);
    if (!dc) {
        diag_fail(d, "cc-check: LLVM has no AArch64 disassembler (LLVMCreateDisasm failed)");
        return NULL;
    }
    a64_insn *v = xcalloc(size / 4 + 1, sizeof *v);
    for (size_t off = 0; off + 4 <= size; off += 4) {
        char text[256];
        size_t got = ((decode_fn *)llvm_fns[DECODE])(dc, (uint8_t *)code + off, size - off, off, text, sizeof text);
        if (got != 4) {
            *bad = off;
            break;
        }
        v[*n].addr = off;
        split_text(text, &v[*n]);
        (*n)++;
    }
    if (*bad == size && size % 4)
        *bad = size - size % 4;
    ((dispose_fn *)llvm_fns[DISPOSE])(dc);
    return v;
}
#else
a64_insn *a64_disasm(const unsigned char *code, size_t size, int *n, size_t *bad, diag *d)
{
    (void)code;
    *n = 0;
    *bad = size;
    diag_fail(d, "cc-check: this litmusc was built without LLVM (llvm-config), which decodes AArch64 objects");
    return NULL;
}
#endif
