/* A function's bytes and relocations from a relocatable object, through
 * libelf/gelf: the symbol table gives the function's section, value and
 * size; the section's .rela section gives what each operand names. */
#include <fcntl.h>
#include <gelf.h>
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
    memset(f, 0, sizeof *f);
}

bool lift_elf_func(const char *obj, const char *name, lift_func *out, diag *d)
{
    memset(out, 0, sizeof *out);
    elf_version(EV_CURRENT);
    int fd = open(obj, O_RDONLY);
    if (fd < 0)
        return diag_fail(d, "cc-check: cannot open %s", obj);
    Elf *e = elf_begin(fd, ELF_C_READ, NULL);
    Elf_Scn *symscn = NULL, *scn = NULL;
    GElf_Shdr sh;
    while (e && (scn = elf_nextscn(e, scn)))
        if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB)
            symscn = scn;
    bool found = false;
    size_t fsec = 0, strndx = 0;
    GElf_Sym fsym;
    Elf_Data *syms = symscn ? elf_getdata(symscn, NULL) : NULL;
    if (syms) {
        gelf_getshdr(symscn, &sh);
        strndx = sh.sh_link;
        for (size_t i = 0; i < sh.sh_size / sh.sh_entsize && !found; i++) {
            gelf_getsym(syms, (int)i, &fsym);
            const char *s = elf_strptr(e, strndx, fsym.st_name);
            if (s && !strcmp(s, name) && GELF_ST_TYPE(fsym.st_info) == STT_FUNC)
                found = true;
        }
    }
    if (!found) {
        if (e)
            elf_end(e);
        close(fd);
        return diag_fail(d, "cc-check: %s has no function %s", obj, name);
    }
    fsec = fsym.st_shndx;
    Elf_Scn *text = elf_getscn(e, fsec);
    Elf_Data *td = elf_getdata(text, NULL);
    out->name = xstrdup(name);
    out->size = fsym.st_size;
    out->code = xmalloc(out->size ? out->size : 1);
    if (td && td->d_buf && fsym.st_value + fsym.st_size <= td->d_size)
        memcpy(out->code, (char *)td->d_buf + fsym.st_value, out->size);
    scn = NULL;
    while ((scn = elf_nextscn(e, scn))) {
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_RELA || sh.sh_info != fsec)
            continue;
        Elf_Data *rd = elf_getdata(scn, NULL);
        for (size_t i = 0; rd && i < sh.sh_size / sh.sh_entsize; i++) {
            GElf_Rela r;
            gelf_getrela(rd, (int)i, &r);
            if (r.r_offset < fsym.st_value || r.r_offset >= fsym.st_value + fsym.st_size)
                continue;
            GElf_Sym s;
            gelf_getsym(syms, (int)GELF_R_SYM(r.r_info), &s);
            const char *sn = elf_strptr(e, strndx, s.st_name);
            if (GELF_ST_TYPE(s.st_info) == STT_SECTION)   /* .bss+off: not one of ours */
                sn = "?section";
            out->relocs = xrealloc(out->relocs, sizeof *out->relocs * (size_t)(out->nrelocs + 1));
            out->relocs[out->nrelocs++] =
                (lift_reloc){r.r_offset - fsym.st_value, xstrdup(sn ? sn : "?"), (long)r.r_addend};
        }
    }
    elf_end(e);
    close(fd);
    return true;
}
