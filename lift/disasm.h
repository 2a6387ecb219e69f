#ifndef LITMUSC_LIFT_DISASM_H
#define LITMUSC_LIFT_DISASM_H
/* Capstone's decoding of one function, in AT&T syntax. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum lift_kind { LK_PLAIN, LK_JUMP, LK_CALL, LK_INDIRECT, LK_RET } lift_kind;
typedef struct lift_insn {
    uint64_t addr;          /* offset in the function */
    size_t size;
    char mnem[32];
    char ops[160];
    lift_kind kind;
    uint64_t target;        /* LK_JUMP: offset jumped to */
} lift_insn;

/* The instructions of CODE; *N set, and *DECODED to the bytes they cover:
 * Capstone stops at the first byte that begins no x86-64 instruction, so
 * *DECODED < SIZE names that byte's offset.  NULL when Capstone cannot
 * open. */
lift_insn *lift_disasm(const unsigned char *code, size_t size, int *n, size_t *decoded);

/* Why Capstone could not be loaded (the library or a function missing),
 * or NULL when it was or has not been tried. */
const char *lift_disasm_error(void);
#endif
