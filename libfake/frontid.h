/* frontid.h: the front library as the core sees it (not installed;
 * internal). docs/internals.md "The C boundary".
 *
 * The exported vendor names belong to the plain-C front library
 * (emu/lib/libnpuemu.so, libfake/front), which loads this Go core
 * (emu/lib/libnpuemu_core.so, RTLD_LOCAL) from its own directory on the
 * first call. Code of the core that tells its own definitions from another
 * library's (stack.c: interposition; passthrough.c: the vendor's files)
 * must count the front's as its own too.
 */
#ifndef NPUEMU_LIBFAKE_FRONTID_H
#define NPUEMU_LIBFAKE_FRONTID_H

#include <sys/types.h>

/* npu_object_of names the loaded object (program or library) that holds
 * address p: an identifier equal for every address of the same object, or
 * NULL when p is in none; with name set, *name is the object's file name as
 * the loader has it ("" for the program, NULL when none). */
const void *npu_object_of(const void *p, const char **name);

/* npu_front_object is the front library's identifier (npu_object_of), or
 * NULL when no front is loaded (the core was loaded directly, as in
 * libfake's own tests). */
const void *npu_front_object(void);

/* npu_front_file reports whether the file at path is the front library or
 * this core (same device and inode). */
int npu_front_file(const char *path);

#endif
