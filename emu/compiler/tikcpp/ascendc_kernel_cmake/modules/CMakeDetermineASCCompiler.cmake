# The ASC language (Ascend C single-source .asc files): the compiler is
# npuemu's bisheng driver of this toolkit, or $ASC / CMAKE_ASC_COMPILER.
get_filename_component(_asc_npuemu_root "${CMAKE_CURRENT_LIST_DIR}/../../../.." REALPATH)
if(NOT CMAKE_ASC_COMPILER)
    if(DEFINED ENV{ASC} AND NOT "$ENV{ASC}" STREQUAL "")
        set(CMAKE_ASC_COMPILER "$ENV{ASC}")
    else()
        set(CMAKE_ASC_COMPILER "${_asc_npuemu_root}/compiler/ccec_compiler/bin/bisheng")
    endif()
endif()
if(NOT EXISTS "${CMAKE_ASC_COMPILER}")
    message(FATAL_ERROR "npuemu: the Ascend C driver ${CMAKE_ASC_COMPILER} is not built; run `make lib` in the npuemu tree")
endif()
set(CMAKE_ASC_COMPILER "${CMAKE_ASC_COMPILER}" CACHE FILEPATH "Ascend C compiler (npuemu bisheng driver)")
set(CMAKE_ASC_NPUEMU_ROOT "${_asc_npuemu_root}")
set(CMAKE_ASC_COMPILER_ENV_VAR "ASC")
set(CMAKE_ASC_SOURCE_FILE_EXTENSIONS asc)
configure_file("${CMAKE_CURRENT_LIST_DIR}/CMakeASCCompiler.cmake.in"
    "${CMAKE_PLATFORM_INFO_DIR}/CMakeASCCompiler.cmake" @ONLY)
