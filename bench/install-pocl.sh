#!/bin/sh
# Installs the peer runtime of the benchmark: PoCL (an OpenCL implementation
# that runs on the CPU), the OpenCL ICD loader with its link library, and the
# OpenCL headers. Idempotent: does nothing when all three are present.
#
# Usage: bench/install-pocl.sh        (as root, e.g. in CI)
#        sudo bench/install-pocl.sh   (otherwise)
set -eu

PKGS="pocl-opencl-icd ocl-icd-opencl-dev opencl-headers"

missing=""
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing="$missing $p"
	fi
done

if [ -z "$missing" ]; then
	echo "install-pocl: PoCL peer already installed"
	exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
		SUDO="sudo -n"
	else
		echo "install-pocl: missing Debian packages:$missing" >&2
		echo "install-pocl: installing them needs root; run: sudo $0" >&2
		exit 1
	fi
else
	SUDO=""
fi

echo "install-pocl: installing$missing"
# One index refresh per install; the packages may be absent from a stale list.
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
# shellcheck disable=SC2086 # word splitting of the package list is intended
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
echo "install-pocl: done"
