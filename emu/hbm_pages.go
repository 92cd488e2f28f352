package emu

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// Device memory's page size. The node's hbm files (hbm_node.go) are mapped
// with MADV_HUGEPAGE, but the file system behind them decides whether
// that yields huge pages. On tmpfs (/dev/shm, the default node's home) it
// does only where the mount allows it (huge=advise, within_size or
// always) or /sys/kernel/mm/transparent_hugepage/shmem_enabled forces it;
// many hosts mount /dev/shm without huge=, and their device memory then
// has 4 KiB pages. Memory-bound kernels ran 25-35 % slower on those here
// (docs/node.md, "Huge pages"). `npuemu info` says which case a node is.

const tmpfsMagic = 0x01021994

// DevicePages says whether device memory in node directory dir can get
// huge pages, and why, for `npuemu info`.
func DevicePages(dir string) string {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return "unknown: " + err.Error()
	}
	if st.Type != tmpfsMagic {
		return "the file system's own (not tmpfs: its page cache decides; ext4 and xfs use large folios on recent kernels)"
	}
	info, _ := os.ReadFile("/proc/self/mountinfo")
	sysfs, _ := os.ReadFile("/sys/kernel/mm/transparent_hugepage/shmem_enabled")
	point, opt := tmpfsHuge(string(info), dir)
	switch mode := shmemHuge(opt, string(sysfs)); mode {
	case "advise", "within_size", "always":
		return "huge pages where 2 MiB-aligned (tmpfs " + point + " huge=" + mode + ")"
	default:
		return "4 KiB: tmpfs " + point + " makes no huge pages (huge=" + mode + "); `mount -o remount,huge=advise " + point + "` (root) lets npuemu ask for them, or point NPUEMU_NODE at a tmpfs mounted so"
	}
}

// ProgramNodePages is DevicePages for the node a program on the C library
// uses under NPUEMU_NODE=v (unset: DefaultNodeDir): it returns the node's
// directory and DevicePages' answer for it, or for the directory that
// will hold it when it does not exist yet.
func ProgramNodePages(v string) (dir, why string) {
	dir = DefaultNodeDir
	if v != "" {
		d, err := resolveNodeDir(v)
		if err != nil {
			return v, "unknown: " + err.Error()
		}
		dir = d
	}
	look := dir
	if _, err := os.Stat(look); err != nil {
		look = filepath.Dir(look)
	}
	return dir, DevicePages(look)
}

// tmpfsHuge finds the mount holding dir in mountinfo (the longest mount
// point that is a prefix of dir, the last of those listed at that point)
// and returns its mount point and its huge= option ("never" when it has
// none).
func tmpfsHuge(mountinfo, dir string) (point, huge string) {
	dir = filepath.Clean(dir)
	point, huge = "/", "never"
	best := -1
	for _, line := range strings.Split(mountinfo, "\n") {
		f := strings.Fields(line)
		if len(f) < 5 {
			continue
		}
		mp := unescapeMount(f[4])
		// (a later line at the same point is a mount stacked on the earlier)
		if !(dir == mp || mp == "/" || strings.HasPrefix(dir, mp+"/")) || len(mp) < best {
			continue
		}
		best, point, huge = len(mp), mp, "never"
		if i := strings.Index(line, " - "); i >= 0 {
			rest := strings.Fields(line[i+3:]) // fstype source superoptions
			if len(rest) >= 3 {
				for _, o := range strings.Split(rest[2], ",") {
					if v, ok := strings.CutPrefix(o, "huge="); ok {
						huge = v
					}
				}
			}
		}
	}
	return point, huge
}

// unescapeMount undoes mountinfo's octal escapes (\040 for a space).
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if v, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(v))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// shmemHuge is the huge page mode of a tmpfs mount with huge= option
// mount, given shmem_enabled's contents (the selected mode in brackets):
// "deny" turns huge pages off on every mount, "force" on.
func shmemHuge(mount, sysfs string) string {
	sel := ""
	if i := strings.IndexByte(sysfs, '['); i >= 0 {
		if j := strings.IndexByte(sysfs[i:], ']'); j > 0 {
			sel = sysfs[i+1 : i+j]
		}
	}
	switch sel {
	case "deny":
		return "never"
	case "force":
		return "always"
	}
	return mount
}
