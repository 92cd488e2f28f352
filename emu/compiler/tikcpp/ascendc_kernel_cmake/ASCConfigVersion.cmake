# Any requested version is accepted: npuemu's ASC support follows the
# current vendor interface.
set(PACKAGE_VERSION "1.0")
set(PACKAGE_VERSION_COMPATIBLE TRUE)
