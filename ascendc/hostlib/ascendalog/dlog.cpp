// libascendalog: the CANN logging library ("dlog") on npuemu. The vendor's
// host libraries log through it; npuemu's tiling_api and platform libraries
// do too, and programs that link -lascendalog get working calls. dlog.h has
// the rules (level from ASCEND_GLOBAL_LOG_LEVEL, destination stdout or the
// plog file).
#include "dlog.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <mutex>
#include <string>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

namespace {

std::mutex g_mu;
int g_level = -1;  // -1: not read yet
FILE *g_file = nullptr;
bool g_stdout = false;

const char *const kLevelNames[] = {"DEBUG", "INFO", "WARNING", "ERROR"};

void mkdirs(const std::string &path) {
    for (size_t i = 1; i <= path.size(); i++) {
        if (i == path.size() || path[i] == '/') {
            mkdir(path.substr(0, i).c_str(), 0750);
        }
    }
}

// init reads the environment once; g_mu is held.
void init() {
    if (g_level >= 0) {
        return;
    }
    g_level = DLOG_ERROR;
    if (const char *v = getenv("ASCEND_GLOBAL_LOG_LEVEL")) {
        int l = atoi(v);
        if (l >= DLOG_DEBUG && l <= DLOG_NULL) {
            g_level = l;
        }
    }
    const char *out = getenv("ASCEND_SLOG_PRINT_TO_STDOUT");
    g_stdout = out != nullptr && atoi(out) == 1;
}

// file opens the plog file on first use; g_mu is held.
FILE *file() {
    if (g_file != nullptr) {
        return g_file;
    }
    std::string dir;
    if (const char *p = getenv("ASCEND_PROCESS_LOG_PATH")) {
        dir = std::string(p) + "/plog";
    } else if (const char *h = getenv("HOME")) {
        dir = std::string(h) + "/ascend/log/debug/plog";
    } else {
        return nullptr;
    }
    mkdirs(dir);
    std::string path = dir + "/plog-" + std::to_string(getpid()) + ".log";
    g_file = fopen(path.c_str(), "a");
    return g_file;
}

}  // namespace

extern "C" {

int CheckLogLevel(int moduleId, int logLevel) {
    (void)moduleId;
    std::lock_guard<std::mutex> lk(g_mu);
    init();
    return logLevel >= g_level && logLevel < DLOG_NULL ? 1 : 0;
}

void DlogRecord(int moduleId, int level, const char *fmt, ...) {
    if (fmt == nullptr || !CheckLogLevel(moduleId, level)) {
        return;
    }
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    struct timeval tv;
    gettimeofday(&tv, nullptr);
    struct tm tm;
    localtime_r(&tv.tv_sec, &tm);
    std::lock_guard<std::mutex> lk(g_mu);
    FILE *f = g_stdout ? stdout : file();
    if (f == nullptr) {
        return;
    }
    fprintf(f, "[%s] ASCENDC(%d,%s):%04d-%02d-%02d-%02d:%02d:%02d.%06ld %s\n",
            kLevelNames[level < 0 || level > 3 ? 3 : level], getpid(), "npuemu", tm.tm_year + 1900,
            tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, (long)tv.tv_usec, msg);
    fflush(f);
}

int dlog_getlevel(int moduleId, int *enableEvent) {
    (void)moduleId;
    std::lock_guard<std::mutex> lk(g_mu);
    init();
    if (enableEvent != nullptr) {
        *enableEvent = 0;
    }
    return g_level;
}

int dlog_setlevel(int moduleId, int level, int enableEvent) {
    (void)moduleId;
    (void)enableEvent;
    if (level < DLOG_DEBUG || level > DLOG_NULL) {
        return -1;
    }
    std::lock_guard<std::mutex> lk(g_mu);
    init();
    g_level = level;
    return 0;
}

void DlogFlush(void) {
    std::lock_guard<std::mutex> lk(g_mu);
    if (g_file != nullptr) {
        fflush(g_file);
    }
    fflush(stdout);
}

}  // extern "C"
