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
#include <llvm-c/Disassembler.h>

/* LLVM's registration functions for the one target used, which
 * llvm-c/Target.h declares only inside its all-targets macros. */
void LLVMInitializeAArch64TargetInfo(void);
void LLVMInitializeAArch64TargetMC(void);
void LLVMInitializeAArch64Disassembler(void);

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
    LLVMInitializeAArch64TargetInfo();
    LLVMInitializeAArch64TargetMC();
    LLVMInitializeAArch64Disassembler();
    /* the features of every -march cc-check is given, so that each is decoded */
    LLVMDisasmContextRef dc =
        LLVMCreateDisasmCPUFeatures("aarch64-linux-gnu", "generic", "+v8.5a,+lse,+rcpc", NULL, 0, NULL, NULL);
    *n = 0;
    *bad = size;
    if (!dc) {
        diag_fail(d, "cc-check: LLVM has no AArch64 disassembler (LLVMCreateDisasm failed)");
        return NULL;
    }
    a64_insn *v = xcalloc(size / 4 + 1, sizeof *v);
    for (size_t off = 0; off + 4 <= size; off += 4) {
        char text[256];
        size_t got = LLVMDisasmInstruction(dc, (uint8_t *)code + off, size - off, off, text, sizeof text);
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
    LLVMDisasmDispose(dc);
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
