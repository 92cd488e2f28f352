/* prof_output: what aclprofStart/Stop leave on disk (prof-api.md §7, §9):
 * one PROF_<n6>_<ts17>_<pid8><8 letters A-R> directory per Start, with
 * host/data, device_<id>/data and mindstudio_profiler_output holding
 * op_summary (msprof's columns; the kernel's row), task_time (the copy),
 * and msprof_tx with the stamps (marker, push/pop, start/end), aclprofMarkEx
 * (marker_ex) and mstx marks and ranges. npuemu writes the exported files
 * at aclprofStop; the vendor's collector writes raw data that msprof
 * --export turns into them, hence "needs: emulator".
 *
 * needs: emulator
 * link: -lmsprofiler
 */
#include "rt_util.h"

#include <dirent.h>
#include <stdint.h>

#include "acl/acl_prof.h"
#include "mstx/ms_tools_ext.h"
#include "../../examples/kernels/build_kernel.h"

#define N 4096

/* slurp returns the content of the only file in dir whose name starts
 * with prefix. */
static char *slurp(const char *dir, const char *prefix) {
    DIR *d = opendir(dir);
    if (d == NULL) FAIL("opendir %s", dir);
    struct dirent *e;
    char path[8192] = "";
    while ((e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, prefix, strlen(prefix)) == 0) {
            if (path[0]) FAIL("two files %s* in %s", prefix, dir);
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        }
    }
    closedir(d);
    if (!path[0]) FAIL("no file %s* in %s", prefix, dir);
    FILE *f = fopen(path, "r");
    if (f == NULL) FAIL("fopen %s", path);
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return strdup(buf);
}

static int is_dir(const char *p) {
    DIR *d = opendir(p);
    if (d) closedir(d);
    return d != NULL;
}

int main(void)
{
    char repo[4096], so[4096];
    npuemu_repo_of(__FILE__, 2, repo, sizeof repo);
    if (npuemu_build_kernel(repo, "examples/kernels/vadd.c", so, sizeof so) != 0) FAIL("cannot build the kernel");
    CHECK_OK(aclInit(NULL));
    CHECK_OK(aclrtSetDevice(0));
    aclrtStream s;
    CHECK_OK(aclrtCreateStream(&s));
    aclrtBinHandle bin;
    aclrtFuncHandle f;
    CHECK_OK(aclrtBinaryLoadFromFile(so, NULL, &bin));
    npuemu_remove_kernel(so);
    CHECK_OK(aclrtBinaryGetFunction(bin, "vadd_f32", &f));
    void *d[3], *h;
    for (int i = 0; i < 3; i++) CHECK_OK(aclrtMalloc(&d[i], N * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_OK(aclrtMallocHost(&h, N * 4));
    aclrtArgsHandle args;
    aclrtParamHandle p;
    uint64_t n = N;
    CHECK_OK(aclrtKernelArgsInit(f, &args));
    for (int i = 0; i < 3; i++) CHECK_OK(aclrtKernelArgsAppend(args, &d[i], sizeof d[i], &p));
    CHECK_OK(aclrtKernelArgsAppend(args, &n, sizeof n, &p));
    CHECK_OK(aclrtKernelArgsFinalize(args));

    char dir[] = "/tmp/npuemu-prof-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    CHECK_OK(aclprofInit(dir, strlen(dir)));
    uint32_t dev0[] = {0};
    aclprofConfig *cfg = aclprofCreateConfig(dev0, 1, ACL_AICORE_PIPE_UTILIZATION, NULL,
                                             ACL_PROF_TASK_TIME | ACL_PROF_MSPROFTX | ACL_PROF_AICORE_METRICS);
    CHECK(cfg != NULL);
    CHECK_OK(aclprofStart(cfg));

    /* Stamps (doc §6). */
    void *st = aclprofCreateStamp();
    CHECK(st != NULL);
    CHECK_OK(aclprofSetStampTraceMessage(st, "stamp-mark", 10));
    CHECK_OK(aclprofMark(st));
    CHECK_OK(aclprofSetStampTraceMessage(st, "stamp-push", 10));
    CHECK_OK(aclprofPush(st));
    CHECK_OK(aclprofPop());
    CHECK(aclprofPop() != ACL_SUCCESS); /* the stack is empty */
    uint32_t rid = 1000;
    CHECK_OK(aclprofSetStampTraceMessage(st, "stamp-range", 11));
    CHECK_OK(aclprofRangeStart(st, &rid));
    CHECK(rid < 100);
    CHECK_OK(aclprofMarkEx("markex", 6, s));
    CHECK_ERR(aclprofMarkEx("markex", 5, s), ACL_ERROR_INVALID_PARAM);

    /* mstx (doc §8): a range on the stream around the work, a mark. */
    mstxRangeId r = mstxRangeStartA("mstx-work", s);
    CHECK(r != 0);
    CHECK(mstxRangeStartA("=csv", s) == 0); /* CSV-injection guard */
    mstxMarkA("mstx-mark", NULL);
    CHECK_OK(aclrtMemcpyAsync(d[0], N * 4, h, N * 4, ACL_MEMCPY_HOST_TO_DEVICE, s));
    CHECK_OK(aclrtLaunchKernelWithConfig(f, 8, s, NULL, args, NULL));
    CHECK_OK(aclrtSynchronizeStream(s));
    mstxRangeEnd(r);
    CHECK_OK(aclprofRangeStop(rid));
    aclprofDestroyStamp(st);
    uint64_t tool = 1;
    mstxGetToolId(&tool);
    CHECK_EQ(tool, MSTX_TOOL_MSPROF_ID);
    CHECK_OK(aclprofStop(cfg));

    /* doc §7: PROF_000001_<YYYYMMDDhhmmssmmm>_<pid8><8 letters A-R>. */
    DIR *dd = opendir(dir);
    CHECK(dd != NULL);
    struct dirent *e;
    char prof[4096] = "";
    while ((e = readdir(dd)) != NULL)
        if (strncmp(e->d_name, "PROF_", 5) == 0) snprintf(prof, sizeof prof, "%s", e->d_name);
    closedir(dd);
    CHECK(strlen(prof) == 5 + 6 + 1 + 17 + 1 + 8 + 8);
    CHECK(strncmp(prof, "PROF_000001_", 12) == 0);
    char pid[16];
    snprintf(pid, sizeof pid, "%08d", (int)getpid());
    CHECK(strncmp(prof + 30, pid, 8) == 0);
    for (int i = 38; i < 46; i++) CHECK(prof[i] >= 'A' && prof[i] <= 'R');
    char path[8192];
    snprintf(path, sizeof path, "%s/%s/host/data", dir, prof);
    CHECK(is_dir(path));
    snprintf(path, sizeof path, "%s/%s/device_0/data", dir, prof);
    CHECK(is_dir(path));

    /* doc §9.3: op_summary's header and the kernel's row. */
    snprintf(path, sizeof path, "%s/%s/mindstudio_profiler_output", dir, prof);
    char *ops = slurp(path, "op_summary_");
    const char *head = "Device_id,Model ID,Task ID,Stream ID,Op Name,OP Type,OP State,Task Type,"
                       "Task Start Time(us),Task Duration(us),Task Wait Time(us),Block Num,Mix Block Num,"
                       "HF32 Eligible,Input Shapes,Input Data Types,Input Formats,Output Shapes,"
                       "Output Data Types,Output Formats,Context ID,aicore_time(us),aic_total_cycles,";
    CHECK(strncmp(ops, head, strlen(head)) == 0);
    CHECK(strstr(ops, ",vadd_f32,vadd_f32,N/A,AI_VECTOR_CORE,") != NULL);
    CHECK(strstr(ops, "\t,") != NULL); /* the start time ends in a TAB */
    CHECK(strstr(ops, ",8,0,NO,N/A,") != NULL); /* Block Num 8 */
    char *tt = slurp(path, "task_time_");
    CHECK(strncmp(tt, "Device_id,kernel_name,kernel_type,stream_id,task_id,task_time(us),task_start(us),task_stop(us)\n", 94) == 0);
    CHECK(strstr(tt, ",MEMCPY_ASYNC,") != NULL);
    CHECK(strstr(tt, "vadd_f32,AI_VECTOR_CORE,") != NULL);
    char *stat = slurp(path, "op_statistic_");
    CHECK(strstr(stat, "0,vadd_f32,AI_VECTOR_CORE,1,") != NULL);
    char *json = slurp(path, "msprof_2");
    CHECK(json[0] == '[');
    CHECK(strstr(json, "\"Ascend Hardware\"") != NULL);

    /* doc §9.4: msprof_tx rows. */
    char *txc = slurp(path, "msprof_tx_");
    CHECK(strncmp(txc, "Device_id,pid,tid,category,event_type,payload_type,payload_value,Start_time(us),End_time(us),message_type,message,domain,Device Start_time(us),Device End_time(us)\n", 157) == 0);
    CHECK(strstr(txc, ",marker,") && strstr(txc, "stamp-mark"));
    CHECK(strstr(txc, ",push/pop,") && strstr(txc, "stamp-push"));
    CHECK(strstr(txc, "stamp-range"));
    CHECK(strstr(txc, "0,") == txc + 158 || strstr(txc, "\n0,") != NULL); /* a device row */
    CHECK(strstr(txc, ",marker_ex,") && strstr(txc, "markex"));
    CHECK(strstr(txc, ",start/end,") && strstr(txc, "mstx-work,default"));
    CHECK(strstr(txc, "host,") && strstr(txc, "mstx-mark,default"));
    CHECK(strstr(txc, "=csv") == NULL);

    CHECK_OK(aclprofDestroyConfig(cfg));
    CHECK_OK(aclprofFinalize());
    CHECK_OK(aclrtBinaryUnLoad(bin));
    for (int i = 0; i < 3; i++) CHECK_OK(aclrtFree(d[i]));
    CHECK_OK(aclrtFreeHost(h));
    CHECK_OK(aclrtDestroyStream(s));
    CHECK_OK(aclrtResetDevice(0));
    CHECK_OK(aclFinalize());
    printf("profiling output checked in %s/%s\n", dir, prof);
    return 0;
}
