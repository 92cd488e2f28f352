#!/bin/bash
# floor.sh: the crossing floor of the launch path on this machine (see
# bench/floor/floor.go): the median time of a C→Go call, and of a C→Go
# call that calls one C function back, through a Go c-shared library like
# npuemu's core. Run from the repository root; needs go and a C compiler.
set -e
B=$(mktemp -d); trap 'rm -rf "$B"' EXIT
go build -buildmode=c-shared -o "$B/libfloor.so" ./bench/floor
${CC:-cc} -O2 -Wall -Werror -I "$B" -o "$B/floor" bench/floor/c/floor.c -L "$B" -lfloor
LD_LIBRARY_PATH=$B "$B/floor"
