#!/bin/sh
# Install the Debian -dev packages the build needs, or say exactly how to.
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
command -v cc >/dev/null 2>&1 || missing="$missing gcc"
# the test suite validates every --json output against harness/litmusc.schema.json
{ /usr/bin/python3 -c 'import jsonschema' || python3 -c 'import jsonschema'; } >/dev/null 2>&1 ||
    missing="$missing python3-jsonschema"
command -v make >/dev/null 2>&1 || missing="$missing make"
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
  echo "litmusc: missing build dependencies:$missing" >&2
  echo "litmusc: run as root:  apt-get update && apt-get install -y$missing" >&2
  exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "litmusc: missing build dependencies:$missing, and no apt-get to install them" >&2
  exit 1
fi
echo "litmusc: installing$missing"
export DEBIAN_FRONTEND=noninteractive
if ! { apt-get update -qq && apt-get install -y -qq$missing; } >/tmp/litmusc-apt.log 2>&1; then
  echo "litmusc: apt-get install$missing failed; see /tmp/litmusc-apt.log" >&2
  tail -5 /tmp/litmusc-apt.log >&2
  exit 1
fi
