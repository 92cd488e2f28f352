/* dcmi_corrupt: libdcmi.so refuses a node file it cannot trust (docs/node.md
 * "checks every reader makes"): not a node file, another format version, a
 * truncated file. dcmi_init fails with DCMI_ERR_CODE_INNER_ERR and says why
 * on stderr; nothing else answers from such a node. Once the file is
 * gone, dcmi_init succeeds.
 *
 * needs: emulator
 * link: -ldcmi
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "dcmi_interface_api.h"
#include "npuemu/node_format.h"

static char dir[64], path[96], errpath[96];

static void write_node(const void *b, size_t n) {
    char tmp[128];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    CHECK(f != NULL);
    CHECK(fwrite(b, 1, n, f) == n);
    CHECK(fclose(f) == 0);
    CHECK(rename(tmp, path) == 0); /* a new file, as a re-created node */
}

/* init_fails: dcmi_init refuses and its message names want. */
static void init_fails(const char *want) {
    fflush(stderr);
    int saved = dup(2);
    int fd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    CHECK(fd >= 0 && saved >= 0);
    dup2(fd, 2);
    int rc = dcmi_init();
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    close(fd);
    CHECK_EQ(rc, DCMI_ERR_CODE_INNER_ERR);
    char msg[1024] = {0};
    FILE *f = fopen(errpath, "r");
    CHECK(f != NULL);
    size_t n = fread(msg, 1, sizeof msg - 1, f);
    fclose(f);
    msg[n] = '\0';
    if (strstr(msg, want) == NULL) FAIL("dcmi_init's message %s does not say %s", msg, want);
    int num = 0, list[64];
    CHECK_EQ(dcmi_get_card_list(&num, list, 64), DCMI_ERR_CODE_INNER_ERR); /* not initialised */
}

int main(void) {
    snprintf(dir, sizeof dir, "/tmp/npuemu-dcmi-corrupt-%d", (int)getpid());
    snprintf(path, sizeof path, "%s/node", dir);
    snprintf(errpath, sizeof errpath, "%s/stderr", dir);
    CHECK(mkdir(dir, 0700) == 0);
    setenv("NPUEMU_NODE", dir, 1);

    static struct npuemu_node_header h;
    memset(&h, 0x5A, sizeof h);
    write_node(&h, sizeof h);
    init_fails("not an npuemu node file");

    memset(&h, 0, sizeof h);
    h.magic = NPUEMU_NODE_MAGIC;
    h.version = NPUEMU_NODE_VERSION + 1;
    write_node(&h, sizeof h);
    init_fails("node format version 3, this library reads version 2");

    h.version = NPUEMU_NODE_VERSION;
    h.header_size = sizeof h;
    h.file_size = 64ull << 20; /* the header promises more than the file holds */
    h.device_count = 8;
    write_node(&h, sizeof h);
    init_fails("truncated");

    CHECK(unlink(path) == 0);
    CHECK_EQ(dcmi_init(), DCMI_OK); /* no node: a node nobody used yet */
    int num = 0, list[64];
    CHECK_EQ(dcmi_get_card_list(&num, list, 64), DCMI_OK);
    CHECK_EQ(num, 8);
    unlink(errpath);
    rmdir(dir);
    printf("dcmi_corrupt: ok\n");
    return 0;
}
