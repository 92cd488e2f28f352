# npuemu build. `make` builds the drop-in libraries into emu/lib; `make demo`
# also runs the demo C programs (hello_npu, vector_add) on them; `make test` runs every check.

GO      ?= go
CC      := $(shell $(GO) env CC)
LIB     := emu/lib
SONAMES := libascendcl.so libacl_rt.so libacl_rt_impl.so libruntime.so libascend_hal.so libmsprofiler.so libprofapi.so libms_tools_ext.so
CFLAGS_APP := -O2 -Wall -Werror -I emu/include

.PHONY: all lib generate demo test deps check-format vet gotest manylanes oneproc clean bench

all: lib

# One library under every vendor soname (symlinks to it), so the dynamic
# loader maps one object (one Go runtime) whatever names a program links or
# dlopens. libnpuemu.so is the plain-C front (libfake/front): it exports
# every name and loads the Go core, libnpuemu_core.so (./libfake), on the
# first call (docs/internals.md "The C boundary").
#
# RELR: where the linker and the C library support packed relative
# relocations (binutils >= 2.38, glibc >= 2.36), the ~33 000 pointers the
# loader fixes up in the Go core at every process start are described in
# 12 KB instead of 800 KB (docs/benchmarks.md, seventeenth session). Probed
# here, so that an older toolchain builds the plain form.
#
# PGO: the core is built with libfake/default.pgo, a CPU profile of the
# launch workloads (bench/pgo.sh writes it): the Go compiler inlines the
# calls hot there and devirtualises hot interface calls, ~7 % fewer
# instructions on the launch path (docs/internals.md "Profile-guided
# build"). -pgo=auto is the Go tool's default, named here to say so.
FRONT_SRC    := $(wildcard libfake/front/*.c)
RELR         := $(shell t=$$(mktemp); printf 'static int x; int *p = &x;\n' | $(CC) -shared -fPIC -x c - -o $$t -Wl,-z,pack-relative-relocs -Wl,--fatal-warnings 2>/dev/null && echo -Wl,-z,pack-relative-relocs; rm -f $$t)
FRONT_CFLAGS := -shared -fPIC -O2 -Wall -Wextra -Werror -fvisibility=hidden -Wl,-z,nodelete $(RELR) -I emu/include -I emu/include/driver
lib:
	@mkdir -p $(LIB)
	$(GO) build -buildmode=c-shared -pgo=auto $(if $(RELR),-ldflags=-extldflags=$(RELR)) -o $(LIB)/libnpuemu_core.so ./libfake
	@rm -f $(LIB)/libnpuemu_core.h $(LIB)/libnpuemu.h
	$(CC) $(FRONT_CFLAGS) -o $(LIB)/libnpuemu.so $(FRONT_SRC) -ldl -lpthread
	@cd $(LIB) && for n in $(SONAMES); do ln -sf libnpuemu.so $$n; done

# Regenerate headers, ABI checks, Go constants and C shims from ../shared/spec
# and from our own headers; shimgen also writes the Go mirrors of the vendor
# structs libfake casts (acl/, hal/, rt/ zmirrors.go, from the C compiler's
# layout: needs $(CC)).
generate:
	$(GO) run ./cmd/specgen -spec ../shared/spec -out .
	$(GO) run ./cmd/shimgen -out libfake
	$(GO) run ./cmd/npuemu compat -markdown -w docs/compat.md
	$(GO) run ./cmd/npuemu compat -summary -w README.md

demo: deps lib
	@mkdir -p build
	$(CC) $(CFLAGS_APP) -o build/hello_npu examples/hello_npu.c -L $(LIB) -lascendcl
	LD_LIBRARY_PATH=$(LIB) ./build/hello_npu
	$(CC) -shared -fPIC -O2 -Wall -Werror -I emu/include -o build/vadd.so examples/kernels/vadd.c
	$(CC) $(CFLAGS_APP) -o build/vector_add examples/vector_add.c -L $(LIB) -lascendcl
	LD_LIBRARY_PATH=$(LIB) ./build/vector_add build/vadd.so
	$(MAKE) --no-print-directory ascendc-demo

check-format:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

# -timeout 30m: conformance also builds and runs every Ascend C sample with
# its own CMake (TestAscendCSamples, a few minutes on 2 cores).
gotest: lib
	$(GO) test -race -shuffle=on -count=1 -timeout 30m ./...

# A big machine's many-lane paths on any machine (a kernel's blocks on up
# to 16 host lanes, the lanes' grace for a waiting launcher: tsfw/aicore.go):
# the device model's and the core library's tests, the C conformance
# cases, the Ascend C samples and the examples, with NPUEMU_THREADS=16 and
# the Go runtime's 16 Ps of a 16-CPU machine, GOMAXPROCS=16
# (docs/conformance.md, "Many lanes, one P").
manylanes: lib
	GOMAXPROCS=16 NPUEMU_THREADS=16 $(GO) test -race -count=1 ./tsfw ./libfake ./acl
	$(GO) test -count=1 -timeout 30m ./conformance -run 'TestConformance|TestAscendCSamples|TestExamples' -args -env GOMAXPROCS=16 -env NPUEMU_THREADS=16

# A user's GOMAXPROCS=1 (the emulator's Go runtime with one P, which a
# polling host thread keeps taking back: docs/runtime.md, "Polling"):
# the device model's, core's and memory's Go tests, every C case,
# Ascend C sample and example.
oneproc: lib
	GOMAXPROCS=1 $(GO) test -count=1 ./tsfw ./acl ./libfake ./rt/... ./svm ./emu
	$(GO) test -count=1 -timeout 30m ./conformance -run 'TestConformance|TestAscendCSamples|TestExamples' -args -env GOMAXPROCS=1

# Tools beyond Go and gcc come from our own script, never by hand.
deps:
	@bash scripts/install-deps.sh

test: deps check-format vet gotest manylanes oneproc

# Benchmarks npuemu beside the PoCL peer and the machine's limits
# (docs/benchmarks.md). Install the peer once with bench/install-pocl.sh;
# BENCHFLAGS=-quick for a smoke run.
bench: lib
	$(GO) run ./bench $(BENCHFLAGS)

clean:
	rm -rf $(LIB) build
include mk/dcmi.mk

# Ascend C toolchain: driver, host libraries, toolkit link names (docs/ascendc-build.md)
include mk/ascendc.mk
