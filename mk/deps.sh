#!/bin/sh
# Install the Debian packages the build needs, or say exactly how to; then
# try the ones only some tests need (their tests say SKIP without them).
# pkg-config name -> Debian package.
set -u
missing=""
need() { pkg-config --exists "$1" 2>/dev/null || missing="$missing $2"; }
command -v pkg-config >/dev/null 2>&1 || missing="$missing pkg-config"
need z3 libz3-dev
need libxml-2.0 libxml2-dev
need libpcre2-8 libpcre2-dev
need cmocka libcmocka-dev
need sqlite3 libsqlite3-dev
need capstone libcapstone-dev
need libelf libelf-dev
command -v cc >/dev/null 2>&1 || missing="$missing gcc"
command -v make >/dev/null 2>&1 || missing="$missing make"

# for tests only: JSON schema validation, GNU parallel campaigns, the
# HTML report in a real browser; Graphviz for `model --graph --format svg`
# (dot text needs nothing)
optional=""
{ /usr/bin/python3 -c 'import jsonschema' || python3 -c 'import jsonschema'; } >/dev/null 2>&1 ||
    optional="$optional python3-jsonschema"
command -v parallel >/dev/null 2>&1 || optional="$optional parallel"
command -v chromium >/dev/null 2>&1 || optional="$optional chromium"
command -v dot >/dev/null 2>&1 || optional="$optional graphviz"
# the second real compiler cc-check's tests compile with (gcc is the first)
command -v clang >/dev/null 2>&1 || optional="$optional clang"
# cc-check --target aarch64: LLVM's disassembler (its C API; without it the
# program builds and refuses AArch64 objects) and the cross compiler
command -v llvm-config-14 >/dev/null 2>&1 || command -v llvm-config >/dev/null 2>&1 ||
    optional="$optional llvm-14-dev"
command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 || optional="$optional gcc-aarch64-linux-gnu"

[ -z "$missing$optional" ] && exit 0
can_install=true
[ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 || can_install=false
if [ -n "$missing" ] && ! $can_install; then
  echo "litmusc: missing build dependencies:$missing" >&2
  if [ "$(id -u)" != 0 ]; then
    echo "litmusc: run as root:  apt-get update && apt-get install -y$missing" >&2
  else
    echo "litmusc: and no apt-get to install them" >&2
  fi
  exit 1
fi
$can_install || exit 0      # the optional tools' tests will say SKIP
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/tmp/litmusc-apt.log 2>&1
if [ -n "$missing" ]; then
  echo "litmusc: installing$missing"
  if ! apt-get install -y -qq$missing >>/tmp/litmusc-apt.log 2>&1; then
    echo "litmusc: apt-get install$missing failed; see /tmp/litmusc-apt.log" >&2
    tail -5 /tmp/litmusc-apt.log >&2
    exit 1
  fi
fi
if [ -n "$optional" ]; then
  echo "litmusc: installing test tools$optional"
  apt-get install -y -qq$optional >>/tmp/litmusc-apt.log 2>&1 ||
    echo "litmusc: could not install$optional (see /tmp/litmusc-apt.log); their tests will be skipped" >&2
fi
exit 0
