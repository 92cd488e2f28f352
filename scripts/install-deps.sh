#!/usr/bin/env bash
# Installs what `make test` needs beyond Go and gcc, from Debian packages:
#   g++            the headers are checked as C++11 too; the Ascend C driver
#                  (emu/bin/bisheng) compiles kernels with it
#   cmake          the Ascend C samples and examples build with their own CMake
#   python3-numpy  the samples' gen_data.py / verify_result.py import numpy
#   python3-torch  only with NPUEMU_DEPS_TORCH=1: the one sample whose
#                  gen_data.py imports torch (it skips without it)
# Idempotent and quiet; does nothing when all is there.
#
# numpy is checked with Debian's own interpreter (/usr/bin/python3): a
# python3 found earlier on PATH (e.g. a pyenv shim) may lack it. The samples
# test puts /usr/bin first on the PATH it gives the samples' scripts
# (docs/ascendc-build.md).
set -euo pipefail
missing=()
command -v g++ >/dev/null 2>&1 || missing+=(g++)
command -v cmake >/dev/null 2>&1 || missing+=(cmake)
if ! { [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import numpy' >/dev/null 2>&1; }; then
    missing+=(python3-numpy)
fi
if [ "${NPUEMU_DEPS_TORCH:-0}" = 1 ] && ! /usr/bin/python3 -c 'import torch' >/dev/null 2>&1; then
    missing+=(python3-torch)
fi
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
    echo "install-deps: missing ${missing[*]}; run as root or: sudo apt-get install -y ${missing[*]}" >&2
    exit 1
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
