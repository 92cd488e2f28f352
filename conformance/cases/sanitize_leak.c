/* sanitize_leak: leakcheck (docs/sanitizer.md) routes the leak report of
 * aclFinalize through the sanitizer, one line per object; a program that
 * releases everything reports nothing. With NPUEMU_SANITIZE_EXITCODE a
 * process that got reports exits with that status, after the summary. */
/* needs: emulator */
/* env: NPUEMU_SANITIZE=leakcheck,racecheck NPUEMU_SANITIZE_EXITCODE=42 NPUEMU_SANITIZE_TRACK_WAIT=10m */
#include "sanitize_util.h"

#include <sys/wait.h>
#include <unistd.h>

/* run starts this program again (fork and exec: the runtime does not run
 * in a forked child) to run body with stderr in a file, and returns its
 * exit status and what it wrote. */
static int run(const char *self, const char *body, const char **out)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/npuemu-san-leak-%d-%s", (int)getpid(), body);
    fflush(NULL);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0600);
        if (fd < 0 || dup2(fd, 2) != 2) _exit(90);
        execl(self, self, body, (char *)NULL);
        _exit(91);
    }
    int status = 0;
    CHECK_EQ(waitpid(pid, &status, 0), pid);
    CHECK(WIFEXITED(status));
    FILE *f = fopen(path, "r");
    CHECK(f != NULL);
    size_t n = fread(san_out, 1, sizeof san_out - 1, f);
    san_out[n] = '\0';
    fclose(f);
    unlink(path);
    fputs(san_out, stdout);
    *out = san_out;
    return WEXITSTATUS(status);
}

static void clean(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream s = NULL;
    CHECK_OK(aclrtCreateStream(&s));
    void *d = NULL;
    CHECK_OK(aclrtMalloc(&d, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtFree(d));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
}

static void leaky(void)
{
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream s = NULL;
    CHECK_OK(aclrtCreateStream(&s));
    aclrtEvent e = NULL;
    CHECK_OK(aclrtCreateEvent(&e));
    CHECK_OK(aclFinalize());
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "clean") == 0) {
        clean();
        return 0;
    }
    if (argc == 2 && strcmp(argv[1], "leaky") == 0) {
        leaky();
        return 0;
    }
    char self[4096];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    CHECK(len > 0);
    self[len] = '\0';
    const char *out = NULL;
    /* True negative: nothing reported, the program's status kept. */
    CHECK_EQ(run(self, "clean", &out), 0);
    CHECK_EQ(san_count(out, NULL), 0);
    CHECK(strstr(out, SAN_PREFIX "summary: no reports (checks: racecheck,leakcheck)") != NULL);

    /* True positive: the device (never reset), its primary context and
     * default stream, the stream and the event left alive, one line each;
     * the summary counts them and the exit status is 42. */
    CHECK_EQ(run(self, "leaky", &out), 42);
    CHECK(san_has(out, "leakcheck", "default stream", "still alive at aclFinalize"));
    CHECK(san_has(out, "leakcheck", "event", "still alive at aclFinalize"));
    CHECK_EQ(san_count(out, "leakcheck"), 5);
    CHECK(strstr(out, SAN_PREFIX "summary: 5 report(s), 5 distinct (leakcheck 5;") != NULL);
    return 0;
}
