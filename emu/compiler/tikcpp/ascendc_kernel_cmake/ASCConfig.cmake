# ASCConfig.cmake — find_package(ASC) for npuemu (CMAKE_PREFIX_PATH
# <toolkit>/compiler/tikcpp/ascendc_kernel_cmake). It makes the ASC
# language known, so that `project(x LANGUAGES ASC CXX)` compiles .asc
# sources with npuemu's bisheng driver (modules/CMake*ASC*.cmake):
#
#   find_package(ASC REQUIRED)
#   project(demo LANGUAGES ASC CXX)
#   add_executable(demo add_custom.asc)
#   target_compile_options(demo PRIVATE $<$<COMPILE_LANGUAGE:ASC>:--npu-arch=dav-2201>)
#
# CMAKE_ASC_ARCHITECTURES (e.g. dav-2201), set before project(), chooses the
# architecture macros (__NPU_ARCH__) as --npu-arch does. docs/ascendc-build.md.
get_filename_component(_asc_npuemu_dir "${CMAKE_CURRENT_LIST_DIR}" REALPATH)
list(FIND CMAKE_MODULE_PATH "${_asc_npuemu_dir}/modules" _asc_npuemu_idx)
if(_asc_npuemu_idx EQUAL -1)
    list(APPEND CMAKE_MODULE_PATH "${_asc_npuemu_dir}/modules")
endif()
get_filename_component(ASC_NPUEMU_ROOT "${_asc_npuemu_dir}/../../.." ABSOLUTE)
set(ASC_FOUND TRUE)
set(ASC_VERSION "1.0")
set(ASC_INCLUDE_DIRS "${ASC_NPUEMU_ROOT}/include")
set(ASC_LIBRARY_DIRS "${ASC_NPUEMU_ROOT}/lib64")
unset(_asc_npuemu_idx)
