/* runner.c: the batch runner of the sweep (package doc). sweep.go puts the
 * headers at INCLUDES and the generated switch at CASES.
 *
 * usage: sweep LIB KERNEL.so FIRST END ALARM_S
 * For each case in [FIRST, END) it forks; the child execs this program
 * again as "sweep -child KERNEL I ALARM_S" with LIB in LD_PRELOAD (a Go
 * c-shared library cannot be dlopened: its TLS is initial-exec), sets up,
 * makes the call and _exits 0 after writing "R <i> <result>"; the parent
 * writes "S <i> ok|hang|crash <detail>" once the child is gone. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/*INCLUDES*/

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#pragma GCC diagnostic ignored "-Wint-conversion"
#pragma GCC diagnostic ignored "-Wpointer-to-int-cast"
#pragma GCC diagnostic ignored "-Wint-to-pointer-cast"
#pragma GCC diagnostic ignored "-Wincompatible-pointer-types"
#pragma GCC diagnostic ignored "-Woverflow"

static void *lib;
static int cur;

static void *sym(const char *name) {
    void *f = dlsym(lib, name);
    if (f == NULL) {
        char line[256];
        int n = snprintf(line, sizeof line, "M %d %s\n", cur, name);
        (void)!write(1, line, n);
        _exit(0);
    }
    return f;
}
#define F(name) ((__typeof__(&name))sym(#name))

static void result(int i, long long r) {
    char line[64];
    int n = snprintf(line, sizeof line, "R %d %lld\n", i, r);
    (void)!write(1, line, n);
}

/* The arguments: live buffers and handles (package doc). */
static _Alignas(4096) unsigned char hostbuf[64 << 10];
static _Alignas(64) unsigned char junkbuf[4096];
static void *devbuf;
static void *h_stream, *h_event, *h_ctx, *h_notify, *h_cnt, *h_label, *h_databuf, *h_bin, *h_func, *h_args,
    *h_binary, *h_adesc, *h_phys, *h_ri;
static void *s_stream, *s_event, *s_ctx, *s_notify, *s_cnt, *s_label, *s_databuf, *s_bin, *s_func, *s_args,
    *s_binary, *s_adesc, *s_phys, *s_ri;

static void setup(const char *kernel) {
    memset(junkbuf, 0xA5, sizeof junkbuf);
    F(aclInit)(NULL);
    F(aclrtSetDevice)(0);
    F(aclrtGetCurrentContext)(&h_ctx);
    F(aclrtMalloc)(&devbuf, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST);
    F(aclrtCreateStream)(&h_stream);
    F(aclrtCreateStream)(&s_stream);
    F(aclrtDestroyStream)(s_stream);
    F(aclrtCreateEvent)(&h_event);
    F(aclrtCreateEvent)(&s_event);
    F(aclrtDestroyEvent)(s_event);
    F(aclrtCreateContext)(&s_ctx, 0);
    F(aclrtDestroyContext)(s_ctx);
    F(aclrtSetCurrentContext)(h_ctx);
    F(aclrtCreateNotify)(&h_notify, 0);
    F(aclrtCreateNotify)(&s_notify, 0);
    F(aclrtDestroyNotify)(s_notify);
    F(aclrtCntNotifyCreate)(&h_cnt, 0);
    F(aclrtCntNotifyCreate)(&s_cnt, 0);
    F(aclrtCntNotifyDestroy)(s_cnt);
    F(aclrtCreateLabel)(&h_label);
    F(aclrtCreateLabel)(&s_label);
    F(aclrtDestroyLabel)(s_label);
    h_databuf = F(aclCreateDataBuffer)(hostbuf, 64);
    s_databuf = F(aclCreateDataBuffer)(hostbuf, 64);
    F(aclDestroyDataBuffer)(s_databuf);
    h_adesc = F(aclrtAllocatorCreateDesc)();
    s_adesc = F(aclrtAllocatorCreateDesc)();
    F(aclrtAllocatorDestroyDesc)(s_adesc);
    aclrtPhysicalMemProp prop;
    memset(&prop, 0, sizeof prop);
    prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
    prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = 0;
    F(aclrtMallocPhysical)(&h_phys, 2 << 20, &prop, 0);
    F(aclrtMallocPhysical)(&s_phys, 2 << 20, &prop, 0);
    F(aclrtFreePhysical)(s_phys);
    F(aclmdlRIBuildBegin)(&h_ri, 0);
    F(aclmdlRIBuildBegin)(&s_ri, 0);
    F(aclmdlRIDestroy)(s_ri);
    if (kernel[0] != 0) {
        void *bin2 = NULL, *func2 = NULL;
        F(aclrtBinaryLoadFromFile)(kernel, NULL, &h_bin);
        F(aclrtBinaryGetFunction)(h_bin, "vadd_f32", &h_func);
        F(aclrtKernelArgsInit)(h_func, &h_args);
        F(aclrtBinaryLoadFromFile)(kernel, NULL, &bin2);
        F(aclrtBinaryGetFunction)(bin2, "vadd_f32", &func2);
        F(aclrtKernelArgsInit)(func2, &s_args);
        F(aclrtBinaryUnLoad)(bin2);
        s_bin = bin2;
        s_func = func2;
    }
    h_binary = F(aclrtCreateBinary)(junkbuf, 64);
    s_binary = F(aclrtCreateBinary)(junkbuf, 64);
    F(aclrtDestroyBinary)(s_binary);
    memset(hostbuf, 0, sizeof hostbuf);
}

static void run(int i) {
    switch (i) {
/*CASES*/
    default:
        break;
    }
}

static volatile sig_atomic_t expired;
static void on_alarm(int sig) {
    (void)sig;
    expired = 1;
}

static int child(const char *kernel, int i, int alarm_s) {
    signal(SIGALRM, SIG_DFL);
    alarm(alarm_s);
    cur = i;
    lib = RTLD_DEFAULT;
    setup(kernel);
    F(aclGetRecentErrMsg)(); /* clear what setup left */
    run(i);
    const char *msg = F(aclGetRecentErrMsg)();
    if (msg != NULL && strstr(msg, "npuemu: internal error in") != NULL) {
        char line[512];
        int n = snprintf(line, sizeof line, "P %d %.400s\n", i, msg);
        for (int k = 0; k < n - 1; k++)
            if (line[k] == '\n')
                line[k] = ' ';
        (void)!write(1, line, n);
    }
    _exit(0);
}

extern char **environ;

int main(int argc, char **argv) {
    if (argc == 5 && strcmp(argv[1], "-child") == 0)
        return child(argv[2], atoi(argv[3]), atoi(argv[4]));
    if (argc != 6) {
        fprintf(stderr, "usage: %s LIB KERNEL FIRST END ALARM_S\n", argv[0]);
        return 2;
    }
    const char *path = argv[1], *kernel = argv[2];
    int first = atoi(argv[3]), end = atoi(argv[4]), alarm_s = atoi(argv[5]);
    setvbuf(stdout, NULL, _IONBF, 0);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm; /* no SA_RESTART: waitpid returns EINTR */
    sigaction(SIGALRM, &sa, NULL);
    for (int i = first; i < end; i++) {
        pid_t pid = fork();
        if (pid < 0) {
            perror("fork");
            return 2;
        }
        if (pid == 0) {
            char is[16], as[16];
            snprintf(is, sizeof is, "%d", i);
            snprintf(as, sizeof as, "%d", alarm_s);
            setenv("LD_PRELOAD", path, 1);
            char *args[] = {argv[0], "-child", (char *)kernel, is, as, NULL};
            execve("/proc/self/exe", args, environ);
            perror("execve");
            _exit(3);
        }
        expired = 0;
        alarm(alarm_s + 2);
        int st = 0;
        for (;;) {
            pid_t w = waitpid(pid, &st, 0);
            if (w == pid)
                break;
            if (w < 0 && errno == EINTR && expired) {
                kill(pid, SIGKILL);
                expired = 0;
                continue;
            }
            if (w < 0 && errno != EINTR) {
                perror("waitpid");
                return 2;
            }
        }
        alarm(0);
        if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
            printf("S %d ok\n", i);
        else if (WIFSIGNALED(st) && (WTERMSIG(st) == SIGALRM || WTERMSIG(st) == SIGKILL))
            printf("S %d hang\n", i);
        else if (WIFSIGNALED(st))
            printf("S %d crash signal=%d\n", i, WTERMSIG(st));
        else
            printf("S %d crash exit=%d\n", i, WEXITSTATUS(st));
    }
    return 0;
}
