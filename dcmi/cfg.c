/*
 * Configuration of the node when the C side must decide it itself: the
 * same variables and defaults as emu.LoadConfig (NPUEMU_CONFIG's JSON keys
 * "soc", "devices", "hbm_bytes"; NPUEMU_DEVICES, NPUEMU_SOC and
 * NPUEMU_HBM_BYTES override the file). ASCEND_RT_VISIBLE_DEVICES is a
 * runtime filter of one process and does not apply to the management view,
 * which always shows every chip of the machine (as on real hardware).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "npu.h"

/* json_value finds top-level "key": in text and returns a pointer to its
 * value, or NULL. The file is small and machine-written; a value that is
 * not a string or a number is reported by the caller. */
static const char *json_value(const char *text, const char *key) {
    size_t kl = strlen(key);
    int depth = 0;
    for (const char *p = text; *p; p++) {
        if (*p == '{') depth++;
        else if (*p == '}') depth--;
        else if (*p == '"') {
            const char *s = p + 1, *e = strchr(s, '"');
            if (e == NULL) return NULL;
            if (depth == 1 && (size_t)(e - s) == kl && strncmp(s, key, kl) == 0) {
                const char *q = e + 1;
                while (isspace((unsigned char)*q)) q++;
                if (*q == ':') {
                    q++;
                    while (isspace((unsigned char)*q)) q++;
                    return q;
                }
            }
            p = e;
        }
    }
    return NULL;
}

static int parse_u64(const char *s, uint64_t *v) {
    char *end;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 0);
    if (errno != 0 || end == s || *s == '-') return -1;
    while (isspace((unsigned char)*end)) end++;
    if (*end != '\0' && *end != ',' && *end != '}') return -1;
    *v = x;
    return 0;
}

static void add_source(struct npu_cfg *c, const char *what) {
    size_t n = strlen(c->source);
    snprintf(c->source + n, sizeof c->source - n, "%s%s", n ? ", " : "", what);
}

static int read_file(const char *path, struct npu_cfg *c, uint64_t *devices, char *err, size_t errlen) {
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        snprintf(err, errlen, "NPUEMU_CONFIG: cannot read configuration file %s: %s", path, strerror(errno));
        return -1;
    }
    char buf[8192];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    const char *v = json_value(buf, "soc");
    if (v != NULL) {
        char name[64];
        const char *e = (*v == '"') ? strchr(v + 1, '"') : NULL;
        if (e == NULL || (size_t)(e - v - 1) >= sizeof name) {
            snprintf(err, errlen, "NPUEMU_CONFIG %s: key \"soc\": want a string", path);
            return -1;
        }
        memcpy(name, v + 1, (size_t)(e - v - 1));
        name[e - v - 1] = '\0';
        if ((c->soc = npu_soc_lookup(name)) == NULL) {
            snprintf(err, errlen, "NPUEMU_CONFIG %s: key \"soc\": unknown SoC %s", path, name);
            return -1;
        }
    }
    if ((v = json_value(buf, "devices")) != NULL && parse_u64(v, devices) != 0) {
        snprintf(err, errlen, "NPUEMU_CONFIG %s: key \"devices\": want a number", path);
        return -1;
    }
    if ((v = json_value(buf, "hbm_bytes")) != NULL && parse_u64(v, &c->usable_bytes) != 0) {
        snprintf(err, errlen, "NPUEMU_CONFIG %s: key \"hbm_bytes\": want a number", path);
        return -1;
    }
    char what[1100];
    snprintf(what, sizeof what, "file %s", path);
    add_source(c, what);
    return 0;
}

/* npu_cfg_from_env fills c from the environment as emu.LoadConfig does. */
int npu_cfg_from_env(struct npu_cfg *c, char *err, size_t errlen) {
    uint64_t devices = (uint64_t)npu_default_devices;
    c->soc = npu_soc_lookup(npu_default_soc);
    c->usable_bytes = 0;
    c->source[0] = '\0';
    const char *v;
    if ((v = getenv("NPUEMU_CONFIG")) != NULL && *v && read_file(v, c, &devices, err, errlen) != 0) return -1;
    if ((v = getenv("NPUEMU_DEVICES")) != NULL && *v) {
        if (parse_u64(v, &devices) != 0) devices = 0;
        add_source(c, "NPUEMU_DEVICES");
    }
    if (devices < 1 || devices > (uint64_t)npu_max_devices) {
        snprintf(err, errlen, "device count %llu: want 1 to %d (configuration from %s)",
                 (unsigned long long)devices, npu_max_devices, c->source);
        return -1;
    }
    if ((v = getenv("NPUEMU_SOC")) != NULL && *v) {
        if ((c->soc = npu_soc_lookup(v)) == NULL) {
            snprintf(err, errlen, "NPUEMU_SOC=%s: unknown SoC", v);
            return -1;
        }
        add_source(c, "NPUEMU_SOC");
    }
    if ((v = getenv("NPUEMU_HBM_BYTES")) != NULL && *v) {
        if (parse_u64(v, &c->usable_bytes) != 0 || c->usable_bytes == 0) {
            snprintf(err, errlen, "NPUEMU_HBM_BYTES=%s: want a byte count > 0", v);
            return -1;
        }
        add_source(c, "NPUEMU_HBM_BYTES");
    }
    if (c->usable_bytes == 0) c->usable_bytes = c->soc->hbm_bytes - c->soc->reserved_bytes;
    c->ndev = (int)devices;
    if (c->source[0] == '\0') snprintf(c->source, sizeof c->source, "defaults");
    return 0;
}
