# ascendc.cmake — npuemu's Ascend C kernel-launch CMake module (the one the
# vendor ships as compiler/tikcpp/ascendc_kernel_cmake/ascendc.cmake).
#
#   include(${ASCEND_CANN_PACKAGE_PATH}/compiler/tikcpp/ascendc_kernel_cmake/ascendc.cmake)
#   ascendc_library(kernels SHARED add_custom.cpp)      # or STATIC
#   ascendc_fatbin_library(kernels add_custom.cpp)      # a device binary file
#   ascendc_compile_definitions(kernels PRIVATE FOO)
#   ascendc_compile_options(kernels PRIVATE -g)
#   ascendc_include_directories(kernels PRIVATE dir)
#   target_link_libraries(app PRIVATE host_intf_pub kernels)
#
# Kernel sources are compiled by npuemu's bisheng driver (a compiler
# launcher in front of the host C++ compiler): each object holds the host
# code, the kernels' device object and aclrtlaunch_<kernel> functions; the
# aclrtlaunch_<kernel>.h headers are generated at configure time into
# <binary dir>/include/<target> and reach the targets that link the
# library. SOC_VERSION picks the target architecture macros; the SoC a
# program runs on is the emulator's (NPUEMU_SOC). docs/ascendc-build.md.

include_guard(GLOBAL)
include(GNUInstallDirs)

get_filename_component(_ASCENDC_NPUEMU_DIR "${CMAKE_CURRENT_LIST_DIR}" REALPATH)
get_filename_component(ASCENDC_NPUEMU_ROOT "${_ASCENDC_NPUEMU_DIR}/../../.." ABSOLUTE)
set(ASCENDC_COMPILER "${ASCENDC_NPUEMU_ROOT}/compiler/ccec_compiler/bin/bisheng")
if(NOT EXISTS "${ASCENDC_COMPILER}")
    message(FATAL_ERROR "npuemu: the Ascend C driver ${ASCENDC_COMPILER} is not built; run `make lib` in the npuemu tree")
endif()

if(NOT DEFINED SOC_VERSION OR SOC_VERSION STREQUAL "")
    set(SOC_VERSION "Ascend910B1")
endif()
if(NOT DEFINED RUN_MODE)
    set(RUN_MODE "npu")
endif()
if(RUN_MODE STREQUAL "cpu")
    message(FATAL_ERROR "npuemu: ascendc.cmake builds RUN_MODE npu (and sim) only; RUN_MODE=cpu projects use find_package(tikicpulib)")
endif()

# SOC_VERSION -> the architecture the vendor's compiler would target.
string(TOLOWER "${SOC_VERSION}" _ascendc_soc)
if(_ascendc_soc MATCHES "^ascend910b" OR _ascendc_soc MATCHES "^ascend910_93")
    set(ASCENDC_NPU_ARCH "dav-2201")
elseif(_ascendc_soc MATCHES "^ascend310p")
    set(ASCENDC_NPU_ARCH "dav-2002")
elseif(_ascendc_soc MATCHES "^ascend310b")
    set(ASCENDC_NPU_ARCH "dav-3002")
elseif(_ascendc_soc MATCHES "^ascend910")
    set(ASCENDC_NPU_ARCH "dav-c100")
elseif(_ascendc_soc MATCHES "^ascend950")
    set(ASCENDC_NPU_ARCH "dav-3510")
else()
    message(FATAL_ERROR "npuemu: SOC_VERSION ${SOC_VERSION} is not a SoC npuemu knows (Ascend910B1..4, Ascend910_93xx, Ascend310P1/3, Ascend310B1..4, Ascend910A/B, Ascend950)")
endif()
message(STATUS "npuemu Ascend C: SOC_VERSION ${SOC_VERSION} (${ASCENDC_NPU_ARCH}), RUN_MODE ${RUN_MODE}, driver ${ASCENDC_COMPILER}")

# host_intf_pub: what host code needs to call the runtime: the headers and
# the library directory of the toolkit, and libascendcl.
if(NOT TARGET host_intf_pub)
    add_library(host_intf_pub INTERFACE)
    target_include_directories(host_intf_pub INTERFACE "${ASCENDC_NPUEMU_ROOT}/include")
    target_link_directories(host_intf_pub INTERFACE "${ASCENDC_NPUEMU_ROOT}/lib64")
    target_link_libraries(host_intf_pub INTERFACE ascendcl)
endif()

# The target that ascendc_compile_* address for a library name.
function(_ascendc_real_target name out)
    get_property(real GLOBAL PROPERTY "ASCENDC_NPUEMU_TARGET_${name}")
    if(NOT real)
        if(NOT TARGET ${name})
            message(FATAL_ERROR "npuemu: ${name} is no ascendc_library / ascendc_fatbin_library target")
        endif()
        set(real ${name})
    endif()
    set(${out} ${real} PARENT_SCOPE)
endfunction()

# _ascendc_sources(out srcs...): absolute paths, compiled as C++ by the driver.
function(_ascendc_sources out)
    set(abs)
    foreach(s IN LISTS ARGN)
        get_filename_component(a "${s}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
        list(APPEND abs "${a}")
    endforeach()
    if(NOT abs)
        message(FATAL_ERROR "npuemu: no kernel source given")
    endif()
    set_source_files_properties(${abs} PROPERTIES LANGUAGE CXX)
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${abs})
    set(${out} ${abs} PARENT_SCOPE)
endfunction()

function(_ascendc_kernel_target target)
    set_target_properties(${target} PROPERTIES
        CXX_COMPILER_LAUNCHER "${ARGN}"
        POSITION_INDEPENDENT_CODE ON
        CXX_STANDARD 17
        CXX_STANDARD_REQUIRED ON)
    target_compile_options(${target} PRIVATE "--npu-arch=${ASCENDC_NPU_ARCH}")
    target_include_directories(${target} PRIVATE "${ASCENDC_NPUEMU_ROOT}/include")
endfunction()

# ascendc_library(name STATIC|SHARED srcs...)
function(ascendc_library target_name target_type)
    if(NOT target_type STREQUAL "STATIC" AND NOT target_type STREQUAL "SHARED")
        message(FATAL_ERROR "npuemu: ascendc_library(${target_name} ${target_type} ...): the type is STATIC or SHARED")
    endif()
    _ascendc_sources(srcs ${ARGN})
    set(hdr_dir "${CMAKE_CURRENT_BINARY_DIR}/include/${target_name}")
    execute_process(
        COMMAND "${ASCENDC_COMPILER}" "--npuemu-gen-headers=${hdr_dir}" ${srcs}
        RESULT_VARIABLE rc ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "npuemu: generating the aclrtlaunch headers of ${target_name} failed:\n${err}")
    endif()
    add_library(${target_name} ${target_type} ${srcs})
    _ascendc_kernel_target(${target_name} "${ASCENDC_COMPILER};--npuemu-launcher")
    target_include_directories(${target_name} PUBLIC "$<BUILD_INTERFACE:${hdr_dir}>")
    target_link_directories(${target_name} PUBLIC "${ASCENDC_NPUEMU_ROOT}/lib64")
    target_link_libraries(${target_name} PUBLIC ascendcl)
    install(TARGETS ${target_name}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
endfunction()

# ascendc_fatbin_library(name srcs...): <binary dir>/fatbin/<name>/<name>.o,
# installed as <prefix>/fatbin/<name>/<name>.o: the device binary that
# aclrtBinaryLoadFromFile loads (an npuemu kernel object, docs/kernels.md).
function(ascendc_fatbin_library target_name)
    _ascendc_sources(srcs ${ARGN})
    set(dev ${target_name}_npuemu_device)
    add_library(${dev} OBJECT ${srcs})
    _ascendc_kernel_target(${dev} "${ASCENDC_COMPILER};--npuemu-launcher;--npuemu-device-only")
    set_property(GLOBAL PROPERTY "ASCENDC_NPUEMU_TARGET_${target_name}" ${dev})
    set(out "${CMAKE_CURRENT_BINARY_DIR}/fatbin/${target_name}/${target_name}.o")
    add_custom_command(OUTPUT "${out}"
        COMMAND "${ASCENDC_COMPILER}" --npuemu-fatbin-link -o "${out}" "$<TARGET_OBJECTS:${dev}>"
        DEPENDS ${dev} "$<TARGET_OBJECTS:${dev}>"
        COMMAND_EXPAND_LISTS
        COMMENT "Linking Ascend C device binary fatbin/${target_name}/${target_name}.o")
    add_custom_target(${target_name} ALL DEPENDS "${out}")
    install(FILES "${out}" DESTINATION fatbin/${target_name})
endfunction()

# ascendc_compile_definitions / _options / ascendc_include_directories:
# as the target_* commands, for the kernel sources of a library.
macro(_ascendc_forward cmd target_name)
    _ascendc_real_target(${target_name} _ascendc_t)
    set(_ascendc_args ${ARGN})
    list(GET _ascendc_args 0 _ascendc_first)
    if(NOT _ascendc_first MATCHES "^(PRIVATE|PUBLIC|INTERFACE)$")
        list(INSERT _ascendc_args 0 PRIVATE)
    endif()
    cmake_language(CALL ${cmd} ${_ascendc_t} ${_ascendc_args})
endmacro()

function(ascendc_compile_definitions target_name)
    _ascendc_forward(target_compile_definitions ${target_name} ${ARGN})
endfunction()

function(ascendc_compile_options target_name)
    _ascendc_forward(target_compile_options ${target_name} ${ARGN})
endfunction()

function(ascendc_include_directories target_name)
    _ascendc_forward(target_include_directories ${target_name} ${ARGN})
endfunction()
