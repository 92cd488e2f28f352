package emu

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// A mountinfo like a container's: /dev/shm without huge= (a mount
// stacked on the host's /dev/shm, which has it), a tmpfs with huge=advise
// under /mnt, and a mount point with a space.
const testMountinfo = `22 1 0:21 / / rw,relatime - ext4 /dev/vda rw
25 22 0:23 / /dev/shm rw,relatime - tmpfs tmpfs rw,huge=always
30 25 0:27 / /dev/shm rw,relatime - tmpfs tmpfs rw,size=24684084k
31 22 0:28 / /mnt/huge rw,relatime - tmpfs tmpfs rw,size=1048576k,huge=advise
32 22 0:29 / /mnt/a\040b rw,relatime - tmpfs tmpfs rw,huge=within_size
`

func TestTmpfsHuge(t *testing.T) {
	for _, tc := range []struct{ dir, point, huge string }{
		{"/dev/shm/npuemu-node", "/dev/shm", "never"},
		{"/dev/shm", "/dev/shm", "never"},
		{"/mnt/huge/npuemu-x", "/mnt/huge", "advise"},
		{"/mnt/hugepages", "/", "never"}, // a prefix of the name only
		{"/mnt/a b/node", "/mnt/a b", "within_size"},
		{"/tmp/node", "/", "never"},
	} {
		point, huge := tmpfsHuge(testMountinfo, tc.dir)
		assert.Equal(t, tc.point, point, tc.dir)
		assert.Equal(t, tc.huge, huge, tc.dir)
	}
}

// shmem_enabled's deny and force override every mount; the others leave
// the mount's option.
func TestShmemHuge(t *testing.T) {
	assert.Equal(t, "never", shmemHuge("never", "always within_size advise [never] deny force\n"))
	assert.Equal(t, "advise", shmemHuge("advise", "always within_size advise [never] deny force\n"))
	assert.Equal(t, "never", shmemHuge("advise", "always within_size advise never [deny] force\n"))
	assert.Equal(t, "always", shmemHuge("never", "always within_size advise never deny [force]\n"))
	assert.Equal(t, "within_size", shmemHuge("within_size", ""))
}

// DevicePages on this machine's node directory says something either way.
func TestDevicePages(t *testing.T) {
	assert.NotEmpty(t, DevicePages(t.TempDir()))
	assert.Contains(t, DevicePages("/no/such/dir"), "unknown")
}

// ProgramNodePages resolves NPUEMU_NODE as the C library does.
func TestProgramNodePages(t *testing.T) {
	dir, why := ProgramNodePages("")
	assert.Equal(t, DefaultNodeDir, dir)
	assert.NotEmpty(t, why)
	dir, _ = ProgramNodePages("ci")
	assert.Equal(t, "/dev/shm/npuemu-ci", dir)
	tmp := t.TempDir()
	dir, why = ProgramNodePages(tmp)
	assert.Equal(t, tmp, dir)
	assert.Equal(t, DevicePages(tmp), why)
	_, why = ProgramNodePages("no/slash")
	assert.Contains(t, why, "unknown")
}
