/* dlog.h: the logging calls of libascendalog (the CANN "dlog" interface),
 * as npuemu's host libraries and any program may call them. C ABI.
 *
 * Levels: 0 DEBUG, 1 INFO, 2 WARNING, 3 ERROR, 4 NULL (off). The level is
 * ASCEND_GLOBAL_LOG_LEVEL (default 3: errors only). A record goes to stdout
 * when ASCEND_SLOG_PRINT_TO_STDOUT=1, else it is appended to
 * $ASCEND_PROCESS_LOG_PATH/plog/plog-<pid>.log (default
 * $HOME/ascend/log/debug/plog/plog-<pid>.log), the vendor's places.
 */
#ifndef NPUEMU_HOSTLIB_DLOG_H
#define NPUEMU_HOSTLIB_DLOG_H

#ifdef __cplusplus
extern "C" {
#endif

#define DLOG_DEBUG 0
#define DLOG_INFO 1
#define DLOG_WARN 2
#define DLOG_ERROR 3
#define DLOG_NULL 4

/* Module ids npuemu's libraries log under (the vendor's ASCENDCKERNEL id). */
#define NPUEMU_DLOG_MODULE_ASCENDC 57

int CheckLogLevel(int moduleId, int logLevel);
void DlogRecord(int moduleId, int level, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int dlog_getlevel(int moduleId, int *enableEvent);
int dlog_setlevel(int moduleId, int level, int enableEvent);
void DlogFlush(void);

#ifdef __cplusplus
}
#endif

#endif
