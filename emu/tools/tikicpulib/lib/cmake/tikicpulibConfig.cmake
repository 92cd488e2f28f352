# tikicpulibConfig.cmake — npuemu's stand-in for the vendor's CPU-debug
# package (find_package(tikicpulib) with CMAKE_PREFIX_PATH
# <toolkit>/tools/tikicpulib/lib/cmake). It defines tikicpulib::<SOC> for
# every SoC name the samples use: an interface target that compiles host
# code in the CPU-debug branch (ASCENDC_CPU_DEBUG, __CCE_KT_TEST__) with
# tikicpulib.h, and links the emulator's runtime. RUN_MODE=cpu programs
# then run their kernels through npuemu's runtime (ICPU_RUN_KF launches the
# kernel on the emulated device; docs/ascendc-build.md). GNUInstallDirs is
# included, as the samples' cpu_lib.cmake installs to CMAKE_INSTALL_LIBDIR.
include(GNUInstallDirs)
get_filename_component(_tikicpulib_dir "${CMAKE_CURRENT_LIST_DIR}" REALPATH)
get_filename_component(_tikicpulib_root "${_tikicpulib_dir}/../../../.." ABSOLUTE)
set(tikicpulib_FOUND TRUE)
set(tikicpulib_VERSION "1.0")
set(_tikicpulib_socs
    Ascend910A Ascend910B Ascend910ProA Ascend910ProB Ascend910PremiumA
    Ascend910B1 Ascend910B2 Ascend910B2C Ascend910B3 Ascend910B4 Ascend910B4-1
    Ascend910_9391 Ascend910_9392 Ascend910_9381 Ascend910_9382 Ascend910_9372 Ascend910_9362
    Ascend310P1 Ascend310P3 Ascend310B1 Ascend310B2 Ascend310B3 Ascend310B4 Ascend950)
foreach(_soc IN LISTS _tikicpulib_socs)
    if(NOT TARGET tikicpulib::${_soc})
        add_library(tikicpulib::${_soc} INTERFACE IMPORTED)
        set_target_properties(tikicpulib::${_soc} PROPERTIES
            INTERFACE_INCLUDE_DIRECTORIES "${_tikicpulib_root}/tools/tikicpulib/lib/include;${_tikicpulib_root}/include"
            INTERFACE_COMPILE_DEFINITIONS "ASCENDC_CPU_DEBUG;__CCE_KT_TEST__;NPUEMU_TIKICPU_SOC=\"${_soc}\";NPUEMU_TIKICPU_TRAMPOLINE=\"${_tikicpulib_root}/lib64/libnpuemu_cpu_trampoline.so\""
            INTERFACE_COMPILE_FEATURES cxx_std_17
            INTERFACE_LINK_DIRECTORIES "${_tikicpulib_root}/lib64"
            INTERFACE_LINK_LIBRARIES "ascendcl")
    endif()
endforeach()
unset(_soc)
