/* A function's bytes and relocations from a relocatable object, through
 * libelf/gelf: the symbol table gives the function's section, value and
 * size; the section's .rela section gives what each operand names.
 *
 * The object comes from whatever --cc names, so nothing in it is trusted:
 * the machine must be the target's, every count comes from the size libelf read
 * (never from a header's entry size), and every offset is checked against
 * the data it points into before it is used.  What is wrong is exit 2,
 * named: the machine, the symbol, the section, the offset. */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lift/lift.h"
#include "util/mem.h"

void lift_func_free(lift_func *f)
{
    free(f->name);
    free(f->code);
    for (int i = 0; i < f->nrelocs; i++)
        free(f->relocs[i].sym);
    free(f->relocs);
    for (int i = 0; i < f->nsyms; i++)
        free(f->syms[i].name);
    free(f->syms);
    memset(f, 0, sizeof *f);
}

/* The machines a compiler for Linux may build for, by name, for the
 * refusal of an object that is not the target's. */
static const char *machine_name(int m)
{
    switch (m) {
    case EM_386: return "i386";
    case EM_X86_64: return "x86-64";
    case EM_AARCH64: return "AArch64";
    case EM_ARM: return "ARM";
    case EM_RISCV: return "RISC-V";
    case EM_PPC: return "PowerPC";
    case EM_PPC64: return "PowerPC64";
    case EM_S390: return "s390";
    case EM_MIPS: return "MIPS";
    case EM_SPARCV9: return "SPARC V9";
    case EM_LOONGARCH: return "LoongArch";
    default: return "another machine's";
    }
}

typedef struct obj {
    Elf *e;
    const char *path;
    int machine;            /* the e_machine expected */
    Elf_Data *syms;         /* the symbol table's data */
    size_t nsyms;
    size_t strndx;          /* its string table */
} obj;

/* The header: a 64-bit relocatable object of the machine expected. */
static bool check_header(const obj *o, diag *d)
{
    if (elf_kind(o->e) != ELF_K_ELF)
        return diag_error(d, o->path, 0, 0, "cc-check: the compiler's output is not an ELF object");
    GElf_Ehdr eh;
    if (!gelf_getehdr(o->e, &eh))
        return diag_error(d, o->path, 0, 0, "cc-check: the object's ELF header cannot be read: %s", elf_errmsg(-1));
    int cls = gelf_getclass(o->e);
    if (eh.e_machine != o->machine || cls != ELFCLASS64) {
        const char *want = machine_name(o->machine);
        return diag_error(d, o->path, 0, 0,
                          "cc-check: the object holds %s code (e_machine %d, %d-bit ELF), not %s: "
                          "the target is %s (--target)",
                          eh.e_machine == o->machine ? (o->machine == EM_X86_64 ? "x32" : "32-bit")
                                                     : machine_name(eh.e_machine),
                          eh.e_machine, cls == ELFCLASS32 ? 32 : 64, want, want);
    }
    if (eh.e_type != ET_REL)
        return diag_error(d, o->path, 0, 0, "cc-check: the object is not relocatable (e_type %d, not ET_REL %d)",
                          eh.e_type, ET_REL);
    return true;
}

/* The symbol table: one, its entries of the size libelf expects. */
static bool find_symtab(obj *o, diag *d)
{
    Elf_Scn *scn = NULL, *symscn = NULL;
    GElf_Shdr sh;
    while ((scn = elf_nextscn(o->e, scn))) {
        if (!gelf_getshdr(scn, &sh))
            return diag_error(d, o->path, 0, 0, "cc-check: the header of section %zu cannot be read: %s",
                              elf_ndxscn(scn), elf_errmsg(-1));
        if (sh.sh_type == SHT_SYMTAB && symscn)
            return diag_error(d, o->path, 0, 0, "cc-check: the object has two symbol tables (sections %zu and %zu)",
                              elf_ndxscn(symscn), elf_ndxscn(scn));
        if (sh.sh_type == SHT_SYMTAB)
            symscn = scn;
    }
    if (!symscn)
        return diag_error(d, o->path, 0, 0, "cc-check: the object has no symbol table");
    gelf_getshdr(symscn, &sh);
    size_t esz = gelf_fsize(o->e, ELF_T_SYM, 1, EV_CURRENT);
    if (sh.sh_entsize != esz)
        return diag_error(d, o->path, 0, 0,
                          "cc-check: the symbol table (section %zu) has entries of %" PRIu64 " bytes, not %zu",
                          elf_ndxscn(symscn), (uint64_t)sh.sh_entsize, esz);
    o->syms = elf_getdata(symscn, NULL);
    if (!o->syms)
        return diag_error(d, o->path, 0, 0, "cc-check: the symbol table (section %zu) cannot be read: %s",
                          elf_ndxscn(symscn), elf_errmsg(-1));
    o->nsyms = o->syms->d_size / esz;
    o->strndx = sh.sh_link;
    return true;
}

/* The section of symbol NAME (SYM), which must hold code and all of its
 * bytes; its data in *TD. */
static bool func_section(const obj *o, const char *name, const GElf_Sym *sym, Elf_Data **td, diag *d)
{
    size_t ndx = sym->st_shndx;
    if (ndx == SHN_UNDEF || ndx >= SHN_LORESERVE)
        return diag_error(d, o->path, 0, 0,
                          "cc-check: symbol %s is in no section of the object (section index 0x%zx%s)", name, ndx,
                          ndx == SHN_ABS ? ": absolute" : ndx == SHN_COMMON ? ": common" : ndx == SHN_UNDEF ? ": undefined" : "");
    Elf_Scn *scn = elf_getscn(o->e, ndx);
    GElf_Shdr sh;
    if (!scn || !gelf_getshdr(scn, &sh))
        return diag_error(d, o->path, 0, 0, "cc-check: symbol %s names section %zu, which the object does not have",
                          name, ndx);
    const char *sname = NULL;
    size_t shstrndx;
    if (elf_getshdrstrndx(o->e, &shstrndx) == 0)
        sname = elf_strptr(o->e, shstrndx, sh.sh_name);
    if (!sname)
        sname = "?";
    if (sh.sh_type != SHT_PROGBITS || !(sh.sh_flags & SHF_EXECINSTR))
        return diag_error(d, o->path, 0, 0, "cc-check: symbol %s is in section %zu (%s), which holds no code", name,
                          ndx, sname);
    *td = elf_getdata(scn, NULL);
    if (!*td || !(*td)->d_buf)
        return diag_error(d, o->path, 0, 0, "cc-check: section %zu (%s) of symbol %s cannot be read: %s", ndx, sname,
                          name, elf_errmsg(-1));
    size_t have = (*td)->d_size;
    if (sym->st_value > have || sym->st_size > have - sym->st_value)
        return diag_error(d, o->path, 0, 0,
                          "cc-check: symbol %s runs outside its section %zu (%s): offset 0x%" PRIx64
                          ", size 0x%" PRIx64 ", the section 0x%zx bytes",
                          name, ndx, sname, (uint64_t)sym->st_value, (uint64_t)sym->st_size, have);
    return true;
}

/* The relocations of section NDX that fall inside [FROM, FROM+SIZE), from
 * each SHT_RELA section that applies to it, into OUT. */
static bool func_relocs(const obj *o, size_t ndx, const char *name, uint64_t from, uint64_t size, lift_func *out,
                        diag *d)
{
    Elf_Scn *scn = NULL;
    GElf_Shdr sh;
    size_t esz = gelf_fsize(o->e, ELF_T_RELA, 1, EV_CURRENT);
    while ((scn = elf_nextscn(o->e, scn))) {
        if (!gelf_getshdr(scn, &sh) || sh.sh_info != ndx || (sh.sh_type != SHT_RELA && sh.sh_type != SHT_REL))
            continue;
        size_t rs = elf_ndxscn(scn);
        if (sh.sh_type == SHT_REL)
            return diag_error(d, o->path, 0, 0,
                              "cc-check: section %zu holds relocations without addends (SHT_REL), which %s "
                              "objects do not use", rs, machine_name(o->machine));
        if (sh.sh_entsize != esz)
            return diag_error(d, o->path, 0, 0,
                              "cc-check: relocation section %zu has entries of %" PRIu64 " bytes, not %zu", rs,
                              (uint64_t)sh.sh_entsize, esz);
        Elf_Data *rd = elf_getdata(scn, NULL);
        if (!rd)
            return diag_error(d, o->path, 0, 0, "cc-check: relocation section %zu cannot be read: %s", rs,
                              elf_errmsg(-1));
        for (size_t i = 0; i < rd->d_size / esz; i++) {
            GElf_Rela r;
            if (!gelf_getrela(rd, (int)i, &r))
                return diag_error(d, o->path, 0, 0, "cc-check: relocation %zu of section %zu cannot be read: %s", i,
                                  rs, elf_errmsg(-1));
            if (r.r_offset < from || r.r_offset - from >= size)
                continue;
            size_t si = GELF_R_SYM(r.r_info);
            GElf_Sym s;
            if (si >= o->nsyms || !gelf_getsym(o->syms, (int)si, &s))
                return diag_error(d, o->path, 0, 0,
                                  "cc-check: the relocation at offset 0x%" PRIx64 " of %s names symbol %zu, and the "
                                  "symbol table has %zu",
                                  (uint64_t)(r.r_offset - from), name, si, o->nsyms);
            const char *sn = elf_strptr(o->e, o->strndx, s.st_name);
            if (GELF_ST_TYPE(s.st_info) == STT_SECTION)   /* .bss+off: not one of ours */
                sn = "?section";
            out->relocs = xrealloc(out->relocs, sizeof *out->relocs * (size_t)(out->nrelocs + 1));
            out->relocs[out->nrelocs++] =
                (lift_reloc){(size_t)(r.r_offset - from), xstrdup(sn ? sn : "?"), (long)r.r_addend,
                             (unsigned)GELF_R_TYPE(r.r_info), s.st_shndx < SHN_LORESERVE ? s.st_shndx : 0,
                             s.st_value + (uint64_t)r.r_addend};
        }
    }
    return true;
}

/* The object's named data symbols into OUT, for lift_sym_at. */
static void data_syms(const obj *o, lift_func *out)
{
    for (size_t i = 0; i < o->nsyms; i++) {
        GElf_Sym s;
        if (!gelf_getsym(o->syms, (int)i, &s) || GELF_ST_TYPE(s.st_info) != STT_OBJECT || s.st_shndx == SHN_UNDEF ||
            s.st_shndx >= SHN_LORESERVE)
            continue;
        const char *sn = elf_strptr(o->e, o->strndx, s.st_name);
        if (!sn || !*sn)
            continue;
        out->syms = xrealloc(out->syms, sizeof *out->syms * (size_t)(out->nsyms + 1));
        out->syms[out->nsyms++] = (lift_sym){xstrdup(sn), s.st_shndx, s.st_value, s.st_size};
    }
}

const lift_sym *lift_sym_at(const lift_func *f, size_t shndx, uint64_t value, uint64_t *off)
{
    for (int i = 0; i < f->nsyms; i++) {
        const lift_sym *s = &f->syms[i];
        if (s->shndx == shndx && value >= s->value && (value - s->value < s->size || value == s->value)) {
            *off = value - s->value;
            return s;
        }
    }
    return NULL;
}

static bool read_func(obj *o, const char *name, lift_func *out, diag *d)
{
    if (!check_header(o, d) || !find_symtab(o, d))
        return false;
    GElf_Sym fsym;
    bool found = false;
    for (size_t i = 0; i < o->nsyms && !found; i++) {
        if (!gelf_getsym(o->syms, (int)i, &fsym))
            continue;
        const char *s = elf_strptr(o->e, o->strndx, fsym.st_name);
        found = s && !strcmp(s, name) && GELF_ST_TYPE(fsym.st_info) == STT_FUNC;
    }
    if (!found)
        return diag_error(d, o->path, 0, 0, "cc-check: the object has no function %s", name);
    Elf_Data *td = NULL;
    if (!func_section(o, name, &fsym, &td, d))
        return false;
    out->name = xstrdup(name);
    out->size = fsym.st_size;
    out->code = xmalloc(out->size ? out->size : 1);
    memcpy(out->code, (const char *)td->d_buf + fsym.st_value, out->size);
    out->machine = o->machine;
    data_syms(o, out);
    return func_relocs(o, fsym.st_shndx, name, fsym.st_value, fsym.st_size, out, d);
}

bool lift_elf_func(const char *path, const char *name, lift_func *out, diag *d)
{
    return lift_elf_func_for(path, name, EM_X86_64, out, d);
}

bool lift_elf_func_for(const char *path, const char *name, int machine, lift_func *out, diag *d)
{
    memset(out, 0, sizeof *out);
    if (elf_version(EV_CURRENT) == EV_NONE)
        return diag_fail(d, "cc-check: libelf: %s", elf_errmsg(-1));
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return diag_error(d, path, 0, 0, "cc-check: the compiler left no object: %s", strerror(errno));
    obj o = {elf_begin(fd, ELF_C_READ, NULL), path, machine, NULL, 0, 0};
    bool ok = o.e != NULL;
    if (!ok)
        diag_error(d, path, 0, 0, "cc-check: the compiler's output cannot be read as ELF: %s", elf_errmsg(-1));
    ok = ok && read_func(&o, name, out, d);
    if (o.e)
        elf_end(o.e);
    close(fd);
    if (!ok)
        lift_func_free(out);
    return ok;
}
