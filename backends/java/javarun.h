#ifndef LITMUSC_BACKENDS_JAVA_JAVARUN_H
#define LITMUSC_BACKENDS_JAVA_JAVARUN_H
/* The standalone Java stress runner: needs only a JDK 17 (javac, java).
 *
 * A run is the runner library (the .java files of backends/java, embedded in the
 * program; package litmusc.runner, main class JAVARUN_MAIN) plus one
 * generated class per test, a subclass of litmusc.runner.LitmusCase that
 * holds an array of instances of the test's memory and one method per
 * thread sweeping a range of them (the bodies come from javagen.h, with
 * the same semantics as the jcstress target).
 *
 *   java -cp LIB:TESTS litmusc.runner.LitmusMain [-s N] [-r N]
 *        [--stride N] [--time SECONDS] PACKAGE.CLASS...
 *
 * prints, for each class in turn, one block of the raw histogram protocol
 * (harness/harness.h), with a `config test NAME` line naming the test.  */
#include "ir/ir.h"
#include "util/diag.h"
#include "util/embed.h"

#define JAVARUN_MAIN "litmusc.runner.LitmusMain"

/* The Java source of T's LitmusCase subclass CLS in package PACKAGE.
 * malloc'd; NULL + diag (status 2) when T has no Java form. */
char *javarun_generate(const ir_test *t, const char *package, const char *cls, diag *d);

/* The runner library's sources: the I-th, or NULL past the last.  Paths
 * are "backends/java/NAME.java". */
const embed_file *javarun_library_file(int i);

#endif
