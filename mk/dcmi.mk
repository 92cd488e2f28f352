# The plain-C management libraries and npu-smi (docs/dcmi.md). They read the
# node directory and link no Go runtime, so a Go program (device plugin,
# exporter) may dlopen libdcmi.so next to its own runtime.
#
#   make dcmi                          emu/lib/libdcmi.so, emu/lib/libdrvdsmi_host.so, emu/bin/npu-smi
#   make install-driver PREFIX=DIR     real files (no symlinks) under DIR, the layout the real clients accept
#   make generate-dcmi                 dcmi/zsoc.c from the Go SoC catalogue

DCMI_CFLAGS  := -O2 -Wall -Wextra -Werror -fPIC -fvisibility=hidden -std=gnu11 -Wno-format-truncation -I emu/include -I dcmi
DCMI_COMMON  := dcmi/node.c dcmi/cfg.c dcmi/soc.c dcmi/zsoc.c dcmi/vnpu.c
DCMI_HEADERS := $(wildcard dcmi/*.h) emu/include/dcmi_interface_api.h emu/include/npuemu/node_format.h
DCMI_LIBS    := $(LIB)/libdcmi.so $(LIB)/libdrvdsmi_host.so
NPU_SMI      := emu/bin/npu-smi

.PHONY: dcmi install-driver generate-dcmi

lib: dcmi
dcmi: $(DCMI_LIBS) $(NPU_SMI)

$(LIB)/libdcmi.so: dcmi/dcmi.c dcmi/dcmi_vdev.c $(DCMI_COMMON) $(DCMI_HEADERS)
	@mkdir -p $(LIB)
	$(CC) $(DCMI_CFLAGS) -shared -Wl,-soname,libdcmi.so -o $@ dcmi/dcmi.c dcmi/dcmi_vdev.c $(DCMI_COMMON) -lpthread -ldl

$(LIB)/libdrvdsmi_host.so: dcmi/dsmi.c $(DCMI_COMMON) $(DCMI_HEADERS)
	@mkdir -p $(LIB)
	$(CC) $(DCMI_CFLAGS) -shared -Wl,-soname,libdrvdsmi_host.so -o $@ dcmi/dsmi.c $(DCMI_COMMON) -lpthread -ldl

# npu-smi links libdcmi.so's sources statically: it asks the DCMI API, as the
# vendor's tool does, and runs without LD_LIBRARY_PATH.
$(NPU_SMI): dcmi/npusmi.c dcmi/dcmi.c dcmi/dcmi_vdev.c $(DCMI_COMMON) $(DCMI_HEADERS)
	@mkdir -p emu/bin
	$(CC) $(DCMI_CFLAGS) -o $@ dcmi/npusmi.c dcmi/dcmi.c dcmi/dcmi_vdev.c $(DCMI_COMMON) -lpthread -ldl

# The real clients load libdcmi.so only from root-owned directories without
# group/other write permission and refuse symlinks: install real files.
# PREFIX defaults to /usr/local/Ascend/driver (the vendor's location).
PREFIX ?= /usr/local/Ascend/driver
install-driver: dcmi
	install -d -m 0755 $(PREFIX)/lib64/driver $(PREFIX)/include $(PREFIX)/bin
	install -m 0755 $(LIB)/libdcmi.so $(LIB)/libdrvdsmi_host.so $(PREFIX)/lib64/driver/
	install -m 0644 emu/include/dcmi_interface_api.h $(PREFIX)/include/
	install -m 0755 $(NPU_SMI) $(PREFIX)/bin/
	@echo "installed into $(PREFIX); for ascend-common clients add $(PREFIX)/lib64/driver to LD_LIBRARY_PATH or ldconfig"

generate-dcmi:
	$(GO) run ./cmd/dcmigen

# Benchmark: dcmi_get_device_resource_info median (issue #12 asks <= 50 us).
BENCH_DCMI_PROCS ?= 4
.PHONY: bench-dcmi
bench-dcmi: lib
	@mkdir -p build
	$(CC) -O2 -Wall -Werror -I emu/include -o build/bench_dcmi dcmi/bench/resource_info.c -L $(LIB) -ldcmi -ldl
	LD_LIBRARY_PATH=$(CURDIR)/$(LIB) BENCH_DCMI_PROCS=$(BENCH_DCMI_PROCS) ./build/bench_dcmi
