# The driver is part of the toolkit and checked by its own tests; CMake's
# try-compile is skipped (it would need a full kernel build).
set(CMAKE_ASC_COMPILER_WORKS 1 CACHE INTERNAL "")
