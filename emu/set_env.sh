# Source this file (". emu/set_env.sh") to make a shell look like one with a
# CANN toolkit installed, with npuemu as the toolkit: the same variables the
# vendor's set_env.sh exports, pointing at this directory. CMake projects
# that use ${ASCEND_CANN_PACKAGE_PATH}/include and ${ASCEND_CANN_PACKAGE_PATH}/lib64
# then configure and link against npuemu.
if [ -n "${BASH_SOURCE:-}" ]; then
    npuemu_set_env_file="${BASH_SOURCE[0]}"
elif [ -n "${ZSH_VERSION:-}" ]; then
    npuemu_set_env_file="${(%):-%x}"
else
    npuemu_set_env_file="$0"
fi
npuemu_home="$(cd "$(dirname "$npuemu_set_env_file")" && pwd)"

export ASCEND_HOME_PATH="$npuemu_home"
export ASCEND_TOOLKIT_HOME="$npuemu_home"
export ASCEND_CANN_PACKAGE_PATH="$npuemu_home"
export ASCEND_OPP_PATH="$npuemu_home/opp"
export ASCEND_AICPU_PATH="$npuemu_home"
case ":${LD_LIBRARY_PATH:-}:" in
    *":$npuemu_home/lib64:"*) ;;
    *) export LD_LIBRARY_PATH="$npuemu_home/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" ;;
esac
case ":${PATH:-}:" in
    *":$npuemu_home/bin:"*) ;;
    *) export PATH="$npuemu_home/bin${PATH:+:$PATH}" ;;
esac
# the Ascend C compiler driver (bisheng, ccec), as the vendor's PATH has it
case ":${PATH:-}:" in
    *":$npuemu_home/compiler/ccec_compiler/bin:"*) ;;
    *) export PATH="$npuemu_home/compiler/ccec_compiler/bin${PATH:+:$PATH}" ;;
esac
unset npuemu_set_env_file npuemu_home
