/* npu.c: per-thread slot and message buffer of the libfake boundary. */
#include <pthread.h>
#include <stdlib.h>

#include "npu.h"

static __thread npu_thread slot;

npu_thread *npu_self(void) { return &slot; }

static __thread char *msgbuf;
static __thread size_t msgcap;

static pthread_key_t msgkey;
static pthread_once_t msgonce = PTHREAD_ONCE_INIT;

/* The key's destructor frees a thread's buffer when the thread exits. */
static void msgkey_init(void) { pthread_key_create(&msgkey, free); }

char *npu_msgbuf(size_t n) {
    if (n <= msgcap) return msgbuf;
    size_t cap = msgcap ? msgcap : 256;
    while (cap < n) cap *= 2;
    char *p = realloc(msgbuf, cap);
    if (p == NULL) return NULL;
    msgbuf = p;
    msgcap = cap;
    pthread_once(&msgonce, msgkey_init);
    pthread_setspecific(msgkey, p);
    return p;
}
