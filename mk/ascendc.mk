# Ascend C toolchain (docs/ascendc-build.md), part of `make lib`:
#  - the compiler driver cmd/bisheng, installed where the vendor's build
#    files look for bisheng/ccec (emu/compiler/ccec_compiler/bin; the
#    <arch>-linux, tools/ and ccec names are symlinks kept in git);
#  - every host library ascendc/hostlib/<name>/*.cpp as emu/lib/lib<name>.so,
#    built like the vendor's (C++17, -D_GLIBCXX_USE_CXX11_ABI=0);
#  - the link names of emu/lib: libraries programs link without calling
#    (names of libnpuemu.so, documented as such) and runtime/lib64/stub.
# Included at the end of the Makefile; the existing targets get prerequisites.

ASC_DRIVER      := emu/compiler/ccec_compiler/bin/bisheng
ASC_CXX         ?= g++
ASC_HOSTLIB_SRC := $(wildcard ascendc/hostlib/*/*.cpp)
ASC_HOSTLIBS    := $(sort $(foreach s,$(ASC_HOSTLIB_SRC),$(LIB)/lib$(notdir $(patsubst %/,%,$(dir $(s)))).so))
ASC_HOST_HDRS   := $(shell find emu/include ascendc/hostlib -name '*.h' 2>/dev/null)
# Link names: programs name these libraries on their link line but call
# nothing in them (or only what libnpuemu.so exports). libascendalog.so is
# one only while ascendc/hostlib/ascendalog has no sources.
ASC_LINK_NAMES  := libacl_op_compiler.so libruntime_camodel.so libmsprofiler.so libascend_dump.so libc_sec.so \
                   $(if $(wildcard ascendc/hostlib/ascendalog/*.cpp),,libascendalog.so)

.PHONY: ascendc ascendc-links ascendc-clean ascendc-demo

lib: ascendc
clean: ascendc-clean
demo: ascendc-demo

ascendc: $(ASC_DRIVER) $(ASC_HOSTLIBS) $(LIB)/libnpuemu_cpu_trampoline.so ascendc-links

$(ASC_DRIVER): $(wildcard cmd/bisheng/*.go)
	$(GO) build -o $@ ./cmd/bisheng

# One rule per library: its directory's sources, every header as dependency.
define asc_hostlib_rule
$(LIB)/lib$(1).so: $(wildcard ascendc/hostlib/$(1)/*.cpp) $(ASC_HOST_HDRS)
	@mkdir -p $(LIB)
	$(ASC_CXX) -shared -fPIC -O2 -std=c++17 -D_GLIBCXX_USE_CXX11_ABI=0 -Wall -I emu/include $(addprefix -I ,$(sort $(dir $(ASC_HOSTLIB_SRC)))) \
		-o $$@ $(wildcard ascendc/hostlib/$(1)/*.cpp)
endef
$(foreach l,$(sort $(notdir $(patsubst %/,%,$(dir $(ASC_HOSTLIB_SRC))))),$(eval $(call asc_hostlib_rule,$(l))))

# The device binary behind ICPU_RUN_KF (RUN_MODE=cpu, tikicpulib.h).
$(LIB)/libnpuemu_cpu_trampoline.so: emu/tools/tikicpulib/lib/trampoline.c emu/include/npuemu/kernel.h
	@mkdir -p $(LIB)
	$(CC) -shared -fPIC -O2 -Wall -Werror -I emu/include -o $@ $<

ascendc-links:
	@mkdir -p $(LIB)
	@cd $(LIB) && ln -sfn . stub && for n in $(ASC_LINK_NAMES); do ln -sf libnpuemu.so $$n; done

ascendc-clean:
	rm -f $(ASC_DRIVER)

# The README's Ascend C demo: a vector add built with the CMake module.
ascendc-demo: lib
	bash examples/ascendc/vector_add/run.sh
