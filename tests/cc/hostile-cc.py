#!/usr/bin/env python3
"""A compiler that leaves a malformed object, for cc-check's tests.

    hostile-cc.py MODE [cc-check's arguments: -c -fno-pic FLAGS SRC -o OBJ]

It compiles with the real compiler (CC_REAL, default gcc), then damages
the object the way MODE says, in place:
  entsize0   the symbol table's sh_entsize is 0
  huge       P0's st_size is 2^40
  wrap       P0's st_value wraps: 2^64 - 16, with a size of 0x40
  abs        P0's section index is SHN_ABS
  aarch64    e_machine says AArch64; riscv: RISC-V; i386: Intel 80386
  invalid    P0 holds an invalid byte (0x06) after its first instruction
             (put in the assembly, so every later instruction stays whole)
  garbage    the object is not ELF at all
  none       no object at all
Only a test's tool: it reads the ELF64 headers itself to find what to
damage."""
import os
import struct
import subprocess
import sys

mode, args = sys.argv[1], sys.argv[2:]
real = os.environ.get("CC_REAL", "gcc")
out = args[args.index("-o") + 1]

if mode == "invalid":
    # assembly, the byte after P0's first instruction, then assemble
    src_args = [a for i, a in enumerate(args) if a != "-c" and a != "-o" and (i == 0 or args[i - 1] != "-o")]
    asm = out + ".s"
    subprocess.check_call([real, "-S"] + src_args + ["-o", asm])
    lines = open(asm).read().split("\n")
    start = lines.index("P0:")
    done = False
    for i in range(start + 1, len(lines)):
        s = lines[i].strip()
        if s and not s.startswith(".") and not s.endswith(":") and not s.startswith("#"):
            lines.insert(i + 1, "\t.byte 0x06")
            done = True
            break
    if not done:
        sys.exit("hostile-cc: no instruction in P0")
    open(asm, "w").write("\n".join(lines))
    subprocess.check_call([real, "-c", "-x", "assembler", asm, "-o", out])
    os.unlink(asm)
    sys.exit(0)
if mode == "none":
    sys.exit(0)
if mode == "garbage":
    open(out, "wb").write(b"this is no ELF object\n" * 8)
    sys.exit(0)

subprocess.check_call([real] + args)
b = bytearray(open(out, "rb").read())
if mode in ("aarch64", "riscv", "i386"):
    struct.pack_into("<H", b, 18, {"aarch64": 183, "riscv": 243, "i386": 3}[mode])
    open(out, "wb").write(b)
    sys.exit(0)

shoff, = struct.unpack_from("<Q", b, 0x28)
shentsize, shnum, shstrndx = struct.unpack_from("<HHH", b, 0x3A)


def shdr(i):
    o = shoff + i * shentsize
    name, typ, flags, addr, off, size, link, info, align, entsize = struct.unpack_from("<IIQQQQIIQQ", b, o)
    return o, typ, off, size, link, entsize


sym = [shdr(i) for i in range(shnum) if shdr(i)[1] == 2][0]     # SHT_SYMTAB
ho, _, off, size, link, entsize = sym
stroff = shdr(link)[2]
p0 = None
for k in range(size // 24):
    so = off + k * 24
    nm, = struct.unpack_from("<I", b, so)
    end = b.index(b"\0", stroff + nm)
    if b[stroff + nm:end] == b"P0":
        p0 = so
if p0 is None:
    sys.exit("hostile-cc: no P0")
if mode == "entsize0":
    struct.pack_into("<Q", b, ho + 56, 0)
elif mode == "huge":
    struct.pack_into("<Q", b, p0 + 16, 1 << 40)
elif mode == "wrap":
    struct.pack_into("<QQ", b, p0 + 8, (1 << 64) - 16, 0x40)
elif mode == "abs":
    struct.pack_into("<H", b, p0 + 6, 0xFFF1)
else:
    sys.exit("hostile-cc: unknown mode " + mode)
open(out, "wb").write(b)
