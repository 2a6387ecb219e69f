/* `litmusc emit --target x86`: the shared native emitter (cli/emit_c11.c)
 * with the inline-asm target. */
#include "backends/native.h"
#include "cli/cli.h"

int emit_native_main(int argc, char **argv, native_target target);

int emit_x86_native(int argc, char **argv)
{
    return emit_native_main(argc, argv, NATIVE_X86);
}
