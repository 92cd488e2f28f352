# setenv.bash: what the vendor's run scripts source from the toolkit
# ($ASCEND_HOME_PATH/bin/setenv.bash). Same effect as emu/set_env.sh, which
# it sources: the toolkit variables, PATH (the bisheng/ccec driver) and
# LD_LIBRARY_PATH pointing at this npuemu tree.
. "$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")/.." && pwd)/set_env.sh"
