/* What each architecture's cycles may contain: annotations, fences and
 * dependencies, as diy7 defines them for X86 and C, and litmusc's own
 * spelling for Java (VarHandle modes; diy7 has no Java).
 *
 * Annotation and fence lists are in the order diy7 compares them (the
 * declaration order of its types), which decides ties when it picks a
 * cycle's normal form. */
#include <strings.h>
#include "gen/internal.h"

/* X86: "A" is an atomic write (MOV to a register, then XCHG). */
static const char *const x86_atoms[] = {"A"};
static const char *const x86_fences[] = {"MFence"};

/* C: memory orders (Acq, Rel, Acq_Rel, SC, Rlx, Con in diy7's order). */
static const char *const c_atoms[] = {"Acq", "Rel", "AR", "Sc", "Rlx", "Con"};
static const char *const c_fences[] = {"FenceAcq", "FenceRel", "FenceAR", "FenceSc", "FenceRlx", "FenceCon"};

/* Java: VarHandle access modes and the static fences of VarHandle.  No
 * address dependencies (Java has no pointer arithmetic) and no Rmw. */
static const char *const java_atoms[] = {"Op", "Acq", "Rel", "Vo"};
static const char *const java_fences[] = {"FenceFull", "FenceAcq", "FenceRel", "FenceLL", "FenceSS"};

#define BIT(i) (1u << (i))

static const gen_arch archs[] = {
    {
        .id = GEN_X86, .name = "X86",
        .natoms = 1, .atoms = x86_atoms, .atom_w = BIT(0), .atom_r = 0, .as_a = -1,
        .plain = "Na",
        .nfences = 1, .fences = x86_fences, .strong = 0,
        .dp_r = 0, .dp_w = 0,
        .rmw = true, .optcond = true, .final_single_atomic = true,
    },
    {
        .id = GEN_C, .name = "C",
        .natoms = 6, .atoms = c_atoms,
        .atom_w = BIT(1) | BIT(3) | BIT(4),             /* Rel Sc Rlx */
        .atom_r = BIT(0) | BIT(3) | BIT(4) | BIT(5),    /* Acq Sc Rlx Con */
        .as_a = 3, .plain = "Na",
        .nfences = 6, .fences = c_fences, .strong = 3,
        .dp_r = BIT(GEN_DP_ADDR) | BIT(GEN_DP_CTRL),
        .dp_w = BIT(GEN_DP_ADDR) | BIT(GEN_DP_DATA) | BIT(GEN_DP_CTRL),
        .rmw = false, .c_rmw = true, .optcond = false, .final_single_atomic = false,
    },
    {
        .id = GEN_JAVA, .name = "Java",
        .natoms = 4, .atoms = java_atoms,
        .atom_w = BIT(0) | BIT(2) | BIT(3),             /* Op Rel Vo */
        .atom_r = BIT(0) | BIT(1) | BIT(3),             /* Op Acq Vo */
        .as_a = 3, .plain = "Pl",
        .nfences = 5, .fences = java_fences, .strong = 0,
        .dp_r = BIT(GEN_DP_CTRL),
        .dp_w = BIT(GEN_DP_DATA) | BIT(GEN_DP_CTRL),
        .rmw = false,   /* herd's Java has no exchange: its getAndSet is not in the grammar */ .optcond = false, .final_single_atomic = false,
    },
};

const gen_arch *gen_arch_get(gen_arch_id id)
{
    return &archs[id];
}

bool gen_arch_parse(const char *name, gen_arch_id *out)
{
    for (int i = 0; i < 3; i++)
        if (!strcasecmp(name, archs[i].name)) {
            *out = archs[i].id;
            return true;
        }
    return false;
}
