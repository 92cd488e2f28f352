/* kernel_determinism: virtual time does not depend on the host. The case
 * runs itself twice as a child process; each child launches kernels and
 * asynchronous copies on two streams that wait for each other through
 * events, and prints every event's timestamp (aclrtEventGetTimestamp) and
 * the elapsed times between them (aclrtEventElapsedTime). Both runs must
 * print exactly the same, although the host scheduled them differently.
 *
 * needs: emulator
 */
#include <stdint.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "../../examples/kernels/build_kernel.h"

#define N (1u << 16)
#define EVENTS 8

static int child(const char *so) {
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream a, b;
    CHECK_OK(aclrtCreateStream(&a));
    CHECK_OK(aclrtCreateStream(&b));
    aclrtBinHandle bin;
    aclrtFuncHandle f;
    CHECK_OK(aclrtBinaryLoadFromFile(so, NULL, &bin));
    CHECK_OK(aclrtBinaryGetFunction(bin, "vadd_f32", &f));

    size_t bytes = N * sizeof(float);
    float *h;
    void *d[3];
    CHECK_OK(aclrtMallocHost((void **)&h, bytes));
    for (uint32_t i = 0; i < N; i++) h[i] = (float)i;
    for (int i = 0; i < 3; i++) CHECK_OK(aclrtMalloc(&d[i], bytes, ACL_MEM_MALLOC_HUGE_FIRST));

    aclrtEvent ev[EVENTS];
    for (int i = 0; i < EVENTS; i++) CHECK_OK(aclrtCreateEvent(&ev[i]));

    /* Two argument sets: a kernel of n elements costs more for larger n. */
    aclrtArgsHandle args[2];
    for (int k = 0; k < 2; k++) {
        uint64_t n = k == 0 ? N : N / 4;
        aclrtParamHandle p;
        CHECK_OK(aclrtKernelArgsInit(f, &args[k]));
        for (int i = 0; i < 3; i++) CHECK_OK(aclrtKernelArgsAppend(args[k], &d[i], sizeof d[i], &p));
        CHECK_OK(aclrtKernelArgsAppend(args[k], &n, sizeof n, &p));
        CHECK_OK(aclrtKernelArgsFinalize(args[k]));
    }

    /* Stream a copies the inputs in and runs a kernel; b waits for the
     * copies, runs its own kernels and copies a result back; a waits for
     * b's first kernel before its second. */
    CHECK_OK(aclrtRecordEvent(ev[0], a));
    CHECK_OK(aclrtMemcpyAsync(d[0], bytes, h, bytes, ACL_MEMCPY_HOST_TO_DEVICE, a));
    CHECK_OK(aclrtMemcpyAsync(d[1], bytes, h, bytes, ACL_MEMCPY_HOST_TO_DEVICE, a));
    CHECK_OK(aclrtRecordEvent(ev[1], a));
    CHECK_OK(aclrtLaunchKernelWithConfig(f, 8, a, NULL, args[0], NULL));
    CHECK_OK(aclrtRecordEvent(ev[2], a));

    CHECK_OK(aclrtStreamWaitEvent(b, ev[1]));
    CHECK_OK(aclrtLaunchKernelWithConfig(f, 3, b, NULL, args[1], NULL));
    CHECK_OK(aclrtRecordEvent(ev[3], b));
    CHECK_OK(aclrtLaunchKernelWithConfig(f, 64, b, NULL, args[0], NULL));
    CHECK_OK(aclrtMemcpyAsync(h, bytes, d[2], bytes, ACL_MEMCPY_DEVICE_TO_HOST, b));
    CHECK_OK(aclrtRecordEvent(ev[4], b));

    CHECK_OK(aclrtStreamWaitEvent(a, ev[3]));
    CHECK_OK(aclrtLaunchKernelWithConfig(f, 1, a, NULL, args[1], NULL));
    CHECK_OK(aclrtRecordEvent(ev[5], a));
    CHECK_OK(aclrtStreamWaitEvent(a, ev[4]));
    CHECK_OK(aclrtMemcpyAsync(d[0], bytes, d[2], bytes, ACL_MEMCPY_DEVICE_TO_DEVICE, a));
    CHECK_OK(aclrtRecordEvent(ev[6], a));
    CHECK_OK(aclrtLaunchKernelWithConfig(f, 48, b, NULL, args[0], NULL));
    CHECK_OK(aclrtRecordEvent(ev[7], b));

    CHECK_OK(aclrtSynchronizeStream(a));
    CHECK_OK(aclrtSynchronizeStream(b));
    CHECK(h[N - 1] == 2.0f * (float)(N - 1));

    uint64_t prev[2] = {0, 0};
    for (int i = 0; i < EVENTS; i++) {
        uint64_t ts;
        CHECK_OK(aclrtEventGetTimestamp(ev[i], &ts));
        printf("event %d timestamp %llu us\n", i, (unsigned long long)ts);
        int on_b = i == 3 || i == 4 || i == 7;
        CHECK(ts >= prev[on_b]); /* a stream's records are in order */
        prev[on_b] = ts;
    }
    for (int i = 1; i < EVENTS; i++) {
        float ms;
        CHECK_OK(aclrtEventElapsedTime(&ms, ev[0], ev[i]));
        printf("elapsed 0..%d %.6f ms\n", i, ms);
    }
    for (int i = 0; i < EVENTS; i++) CHECK_OK(aclrtDestroyEvent(ev[i]));
    CHECK_OK(aclrtBinaryUnLoad(bin));
    for (int i = 0; i < 3; i++) CHECK_OK(aclrtFree(d[i]));
    CHECK_OK(aclrtFreeHost(h));
    CHECK_OK(aclrtDestroyStream(a));
    CHECK_OK(aclrtDestroyStream(b));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    return 0;
}

/* run executes this program in child mode and returns its output. */
static char *run(const char *so) {
    int fd[2];
    if (pipe(fd) != 0) FAIL("pipe");
    pid_t pid = fork();
    if (pid < 0) FAIL("fork");
    if (pid == 0) {
        dup2(fd[1], STDOUT_FILENO);
        close(fd[0]);
        close(fd[1]);
        execl("/proc/self/exe", "kernel_determinism", "--child", so, (char *)NULL);
        _exit(127);
    }
    close(fd[1]);
    size_t cap = 1 << 16, len = 0;
    char *out = calloc(cap, 1);
    ssize_t r;
    while (len < cap - 1 && (r = read(fd[0], out + len, cap - 1 - len)) > 0) len += (size_t)r;
    close(fd[0]);
    int status;
    if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        FAIL("child run failed (status %d); its output:\n%s", status, out);
    return out;
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "--child") == 0) return child(argv[2]);
    char repo[4096], so[4096];
    npuemu_repo_of(__FILE__, 2, repo, sizeof repo);
    if (npuemu_build_kernel(repo, "examples/kernels/vadd.c", so, sizeof so) != 0) FAIL("cannot build the kernel");
    char *first = run(so);
    char *second = run(so);
    npuemu_remove_kernel(so);
    if (strstr(first, "elapsed 0..7") == NULL) FAIL("the child printed no figures:\n%s", first);
    if (strcmp(first, second) != 0) FAIL("two runs differ:\n--- first\n%s--- second\n%s", first, second);
    /* The figures must say something: the last event is later than the
     * first, by more than the kernels' fixed costs alone. */
    float last = 0;
    const char *p = strstr(first, "elapsed 0..7 ");
    CHECK(p != NULL && sscanf(p, "elapsed 0..7 %f", &last) == 1);
    CHECK(last > 0.01f);
    printf("%s", first);
    free(first);
    free(second);
    return 0;
}
