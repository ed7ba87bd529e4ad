/* tools/skmd-info: what libskmd sees on this machine, like clinfo for libskmd.
 *
 *   skmd-info [--json]
 *
 * The virtual device, its member devices (how each was chosen, which one runs whole
 * launches, which kernel form it is given), calibrated links and the state of the profile
 * database, the kernel cache, and the controls set away from their defaults.
 *
 * libskmd's objects are linked into this program rather than libskmd.so opened: the
 * members, how they were chosen and which one executes are libskmd's internal state,
 * which the OpenCL API does not show and libskmd.so does not export. The virtual device
 * itself is queried through the OpenCL calls, as an app would.
 */
#include <CL/cl.h>
#include <ftw.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "device/api.h"
#include "support/config.h"
#include "support/json.h"
#include "support/object.h"
#include "device/select.h"
#include "skmd_profiledb.h"
#include "support/version.h"

extern char **environ;

static void print_help(FILE *out)
{
    fprintf(out,
            "usage: skmd-info [--json]\n"
            "Shows what libskmd sees: the one SKMD device, its member devices (how each was\n"
            "chosen by SKMD_DEVICES, which one runs whole launches, which kernel form it gets),\n"
            "the calibrated links and the profile database, the kernel cache, and the SKMD_*\n"
            "controls set away from their defaults.\n\n"
            "Options:\n"
            "  --json     the same as one JSON object\n"
            "  --help     this text\n"
            "  --version  the version of libskmd it belongs to\n\n"
            "The SKMD_* variables of the environment apply as they would to an app\n"
            "(e.g. SKMD_DEVICES=gpu skmd-info). Exit status 1 when there is no SKMD device.\n");
}

/* ---- Output: one tree, written as indented text or as JSON ---------------------------- */

static int json;
static int depth;
static int first_in_level[16] = {1};


static void json_key(const char *key)
{
    if (!first_in_level[depth])
        putchar(',');
    first_in_level[depth] = 0;
    if (key) {
        skmd_json_string(stdout, key);
        putchar(':');
    }
}

/* One level of the tree, opened with `bracket` in JSON; `key` NULL for an element of a
 * list. `title` is the text heading (none when NULL). */
static void open_level(const char *key, const char *title, char bracket)
{
    if (json) {
        json_key(key);
        putchar(bracket);
    } else if (title) {
        printf("%*s%s\n", depth * 2, "", title);
    }
    first_in_level[++depth] = 1;
}

static void close_level(char bracket)
{
    depth--;
    if (json)
        putchar(bracket);
}

/* A section (object) and a list. */
static void begin(const char *key, const char *title) { open_level(key, title, '{'); }
static void end(void) { close_level('}'); }
static void begin_list(const char *key, const char *title) { open_level(key, title, '['); }
static void end_list(void) { close_level(']'); }

static void field_text(const char *key, const char *label, const char *value)
{
    if (json) {
        json_key(key);
        skmd_json_string(stdout, value);
    } else {
        printf("%*s%-18s %s\n", depth * 2, "", label, value);
    }
}

static void field_number(const char *key, const char *label, double value, const char *unit)
{
    if (json) {
        json_key(key);
        printf("%.17g", value);
    } else {
        printf("%*s%-18s %.10g%s%s\n", depth * 2, "", label, value, unit[0] ? " " : "", unit);
    }
}

static void field_bool(const char *key, const char *label, int value)
{
    if (json) {
        json_key(key);
        printf(value ? "true" : "false");
    } else {
        printf("%*s%-18s %s\n", depth * 2, "", label, value ? "yes" : "no");
    }
}

static void field_format(const char *key, const char *label, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void field_format(const char *key, const char *label, const char *fmt, ...)
{
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    field_text(key, label, text);
}

/* ---- The virtual device, through the OpenCL API -------------------------------------- */

static const char *type_name(cl_device_type t)
{
    if (t & CL_DEVICE_TYPE_GPU)
        return "GPU";
    if (t & CL_DEVICE_TYPE_CPU)
        return "CPU";
    if (t & CL_DEVICE_TYPE_ACCELERATOR)
        return "accelerator";
    return "other";
}

/* Returns 0, or -1 when there is no SKMD device (no real device, or no loader). */
static int show_virtual_device(void)
{
    cl_platform_id platform;
    cl_device_id device;
    if (clGetPlatformIDs(1, &platform, NULL) != CL_SUCCESS ||
        clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL) != CL_SUCCESS) {
        begin("virtual_device", "SKMD device");
        field_text("status", "status", "not available (no real device; see the lines above)");
        end();
        return -1;
    }
    char name[512] = "", version[256] = "";
    cl_device_type type = 0;
    cl_uint units = 0;
    size_t group = 0;
    cl_ulong global = 0, alloc = 0, local = 0;
    clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof name, name, NULL);
    clGetDeviceInfo(device, CL_DEVICE_VERSION, sizeof version, version, NULL);
    clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    clGetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL);
    clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof group, &group, NULL);
    clGetDeviceInfo(device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof global, &global, NULL);
    clGetDeviceInfo(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof alloc, &alloc, NULL);
    clGetDeviceInfo(device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local, &local, NULL);
    begin("virtual_device", "SKMD device (what an app sees)");
    field_text("name", "name", name);
    field_text("type", "type", type_name(type));
    field_text("version", "version", version);
    field_number("compute_units", "compute units", units, "");
    field_number("max_work_group_size", "max work-group", (double)group, "");
    field_number("global_mem_bytes", "global memory", (double)global, "bytes");
    field_number("max_alloc_bytes", "max allocation", (double)alloc, "bytes");
    field_number("local_mem_bytes", "local memory", (double)local, "bytes");
    end();
    return 0;
}

/* ---- The members, from libskmd's state ----------------------------------------------- */

#define MAX_CANDIDATES 64

struct candidates {
    int n;
    cl_device_id device[MAX_CANDIDATES];
    char name[MAX_CANDIDATES][256], platform[MAX_CANDIDATES][256];
    struct skmd_candidate c[MAX_CANDIDATES];
};

/* Every real device, numbered as libskmd numbers them for SKMD_DEVICES. */
static void find_candidates(struct candidates *all)
{
    cl_platform_id plats[SKMD_MAX_PLATFORMS];
    cl_uint nplat = 0;
    all->n = 0;
    if (real_clGetPlatformIDs(SKMD_MAX_PLATFORMS, plats, &nplat) != CL_SUCCESS)
        return;
    for (cl_uint p = 0; p < nplat && p < SKMD_MAX_PLATFORMS; p++) {
        cl_device_id devs[MAX_CANDIDATES];
        cl_uint ndev = 0;
        char pname[256] = "";
        real_clGetPlatformInfo(plats[p], CL_PLATFORM_NAME, sizeof pname, pname, NULL);
        if (real_clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, MAX_CANDIDATES, devs, &ndev) !=
            CL_SUCCESS)
            continue;
        for (cl_uint d = 0; d < ndev && d < MAX_CANDIDATES && all->n < MAX_CANDIDATES; d++) {
            int i = all->n++;
            cl_device_type t = 0;
            all->device[i] = devs[d];
            all->name[i][0] = '\0';
            real_clGetDeviceInfo(devs[d], CL_DEVICE_TYPE, sizeof t, &t, NULL);
            real_clGetDeviceInfo(devs[d], CL_DEVICE_NAME, sizeof all->name[i], all->name[i],
                                 NULL);
            snprintf(all->platform[i], sizeof all->platform[i], "%s", pname);
            all->c[i] = (struct skmd_candidate){
                (int)p, (int)d,
                ((t & CL_DEVICE_TYPE_CPU) ? SKMD_KIND_CPU : 0u) |
                    ((t & CL_DEVICE_TYPE_GPU) ? SKMD_KIND_GPU : 0u) |
                    ((t & CL_DEVICE_TYPE_ACCELERATOR) ? SKMD_KIND_ACCELERATOR : 0u),
                all->name[i], all->platform[i]};
        }
    }
}

/* How the member was chosen: the first SKMD_DEVICES term that selects it. */
static void chosen_by(const struct candidates *all, cl_device_id device, char *out, size_t size)
{
    const char *spec = skmd_config()->devices;
    snprintf(out, size, "all devices");
    int index = -1;
    for (int i = 0; i < all->n; i++)
        if (all->device[i] == device)
            index = i;
    char terms[512];
    snprintf(terms, sizeof terms, "%s", spec);
    int positive_terms = 0;
    for (char *save = NULL, *term = strtok_r(terms, ",", &save); term;
         term = strtok_r(NULL, ",", &save)) {
        while (*term == ' ')
            term++;
        if (!*term || *term == '!')
            continue;
        positive_terms++;
        unsigned char selected[MAX_CANDIDATES] = {0};
        char msg[300];
        if (index >= 0 && skmd_select_members(term, all->c, all->n, selected, msg,
                                              sizeof msg) > 0 && selected[index]) {
            snprintf(out, size, "SKMD_DEVICES term \"%s\"", term);
            return;
        }
    }
    if (spec[0] && positive_terms == 0)
        snprintf(out, size, "all devices except SKMD_DEVICES=%s", spec);
}

/* The form of the kernels the member receives (the same rule as splitprog.c). */
static const char *kernel_form(const struct skmd_member *m)
{
    char name[256] = "", vendor[256] = "";
    real_clGetPlatformInfo(m->real_platform, CL_PLATFORM_NAME, sizeof name, name, NULL);
    real_clGetPlatformInfo(m->real_platform, CL_PLATFORM_VENDOR, sizeof vendor, vendor, NULL);
    if (strstr(name, "Portable Computing Language") || strstr(vendor, "pocl"))
        return "pocl bitcode";
    if (strstr(vendor, "NVIDIA"))
        return "nvptx";
    return "source";
}

static void show_members(void)
{
    struct candidates *all = calloc(1, sizeof *all);
    if (!all) {
        fprintf(stderr, "skmd-info: out of memory\n");
        exit(1);
    }
    find_candidates(all);
    begin_list("members", skmd_state.passthrough
                              ? "Members: none (SKMD_MODE=passthrough: calls go to the real "
                                "loader)"
                              : "Members (real devices behind the SKMD device)");
    for (int i = 0; i < skmd_state.nmembers; i++) {
        const struct skmd_member *m = &skmd_state.members[i];
        char platform[256] = "", driver[256] = "", how[600], title[400];
        cl_uint units = 0;
        cl_ulong global = 0;
        real_clGetPlatformInfo(m->real_platform, CL_PLATFORM_NAME, sizeof platform, platform,
                               NULL);
        real_clGetDeviceInfo(m->real_device, CL_DRIVER_VERSION, sizeof driver, driver, NULL);
        real_clGetDeviceInfo(m->real_device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units,
                             NULL);
        real_clGetDeviceInfo(m->real_device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof global, &global,
                             NULL);
        chosen_by(all, m->real_device, how, sizeof how);
        snprintf(title, sizeof title, "member %d: %s", i, m->name);
        begin(NULL, title);
        field_number("index", "index", i, "");
        field_text("device", "device", m->name);
        field_text("platform", "platform", platform);
        field_text("type", "type", type_name(m->type));
        field_number("compute_units", "compute units", units, "");
        field_number("global_mem_bytes", "global memory", (double)global, "bytes");
        field_text("driver_version", "driver version", driver);
        field_text("chosen_by", "chosen by", how);
        field_bool("executing", "executing member", i == skmd_state.exec);
        field_text("kernel_form", "kernels given as", kernel_form(m));
        end();
    }
    if (skmd_state.nmembers == 0 && !skmd_state.passthrough && !json)
        printf("%*snone\n", depth * 2, "");
    end_list();
    free(all);
}

/* ---- Profile database and links, read-only ------------------------------------------- */

static void show_links(sqlite3 *conn)
{
    sqlite3_stmt *st = NULL;
    const char *sql = "SELECT d.vendor, d.name, l.direction, l.memory, l.bytes, l.ms"
                      " FROM links l JOIN devices d ON d.id = l.device WHERE l.point = -1"
                      " ORDER BY d.id, l.direction, l.memory";
    begin_list("links", "Calibrated links (latency, bandwidth)");
    int rows = 0;
    if (conn && sqlite3_prepare_v2(conn, sql, -1, &st, NULL) == SQLITE_OK) {
        while (sqlite3_step(st) == SQLITE_ROW) {
            const char *vendor = (const char *)sqlite3_column_text(st, 0);
            const char *name = (const char *)sqlite3_column_text(st, 1);
            int dir = sqlite3_column_int(st, 2), mem = sqlite3_column_int(st, 3);
            double bytes_per_ms = sqlite3_column_double(st, 4);
            double latency_ms = sqlite3_column_double(st, 5);
            char title[600];
            snprintf(title, sizeof title, "%s %s, %s, %s: %.3f ms + %.2f GB/s",
                     vendor ? vendor : "?", name ? name : "?",
                     dir == SKMD_PDB_H2D ? "host to device" : "device to host",
                     mem == SKMD_PDB_PINNED ? "pinned" : "pageable", latency_ms,
                     bytes_per_ms / 1e6);
            if (json) {
                begin(NULL, title);
                field_format("device", "device", "%s %s", vendor ? vendor : "?",
                             name ? name : "?");
                field_text("direction", "direction", dir == SKMD_PDB_H2D ? "h2d" : "d2h");
                field_text("memory", "memory", mem == SKMD_PDB_PINNED ? "pinned" : "pageable");
                field_number("latency_ms", "latency", latency_ms, "ms");
                field_number("bytes_per_ms", "bandwidth", bytes_per_ms, "bytes/ms");
                end();
            } else {
                printf("%*s%s\n", depth * 2, "", title);
            }
            rows++;
        }
    }
    sqlite3_finalize(st);
    if (!rows && !json)
        printf("%*snot calibrated\n", depth * 2, "");
    end_list();
}

static long long count_of(sqlite3 *conn, const char *sql)
{
    sqlite3_stmt *st = NULL;
    long long n = -1;
    if (sqlite3_prepare_v2(conn, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
        n = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return n;
}

/* Opens the database read-only (skmd-info never creates, repairs or upgrades it); the
 * status is a sentence when something is wrong or the file's schema is an older one.
 * Returns the connection and sets *schema to the file's version, or returns NULL. */
static sqlite3 *open_profile(const char *path, char *status, size_t size, long long *schema)
{
    struct stat sb;
    if (stat(path, &sb) != 0) {
        snprintf(status, size, "absent (created by the first run that profiles a kernel)");
        return NULL;
    }
    sqlite3 *conn = NULL;
    if (sqlite3_open_v2(path, &conn, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
        snprintf(status, size, "cannot be opened: %s", conn ? sqlite3_errmsg(conn) : "?");
        sqlite3_close(conn);
        return NULL;
    }
    long long app = count_of(conn, "PRAGMA application_id");
    long long version = count_of(conn, "PRAGMA user_version");
    if (app < 0 || version < 0) {
        snprintf(status, size, "corrupt: %s (libskmd moves it aside and starts afresh)",
                 sqlite3_errmsg(conn));
        sqlite3_close(conn);
        return NULL;
    }
    /* An older schema that libskmd upgrades in place still has every table shown here. */
    int upgradable = app == SKMD_PDB_APPLICATION_ID && version >= SKMD_PDB_OLDEST_VERSION &&
                     version < SKMD_PDB_SCHEMA_VERSION;
    if (!upgradable && (app != SKMD_PDB_APPLICATION_ID || version != SKMD_PDB_SCHEMA_VERSION)) {
        snprintf(status, size, "not a libskmd profile of schema %d (application_id %lld, "
                 "schema %lld): libskmd moves it aside and starts afresh",
                 SKMD_PDB_SCHEMA_VERSION, app, version);
        sqlite3_close(conn);
        return NULL;
    }
    if (upgradable)
        snprintf(status, size, "profile database schema %lld: libskmd upgrades it on first use",
                 version);
    else
        snprintf(status, size, "ok");
    *schema = version;
    return conn;
}

static void show_profile(void)
{
    const char *path = skmd_config()->profile_db;
    char status[600];
    long long schema = 0;
    sqlite3 *conn = open_profile(path, status, sizeof status, &schema);
    begin("profile_db", "Profile database");
    field_text("path", "path", path);
    field_text("status", "status", status);
    if (conn) {
        long long kernels = count_of(conn, "SELECT count(DISTINCT kernel) FROM perf");
        long long devices = count_of(conn, "SELECT count(*) FROM devices");
        long long decisions = count_of(conn, "SELECT count(*) FROM decisions");
        if (kernels < 0 || devices < 0 || decisions < 0) {
            field_format("error", "error", "corrupt: %s", sqlite3_errmsg(conn));
        } else {
            field_number("schema_version", "schema version", (double)schema, "");
            field_number("kernels_profiled", "kernels profiled", (double)kernels, "");
            field_number("devices", "devices", (double)devices, "");
            field_number("decisions", "decisions logged", (double)decisions, "");
        }
    }
    end();
    show_links(conn);
    sqlite3_close(conn);
}

/* ---- Cache and controls --------------------------------------------------------------- */

static unsigned long long cache_bytes;
static long long cache_files;

static int add_file(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)path, (void)ftw;
    if (flag == FTW_F) {
        cache_bytes += (unsigned long long)sb->st_size;
        cache_files++;
    }
    return 0;
}

static void show_cache(void)
{
    const char *dir = skmd_config()->cache_dir;
    struct stat sb;
    begin("cache", "Kernel cache");
    field_text("dir", "directory", dir);
    if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
        field_text("status", "status", "absent (created on first use)");
    } else {
        nftw(dir, add_file, 16, FTW_PHYS);
        field_number("files", "files", (double)cache_files, "");
        field_number("bytes", "size", (double)cache_bytes, "bytes");
    }
    end();
}

static void field_of(const struct skmd_config *cfg, const struct skmd_control_info *c,
                     char *out, size_t size)
{
    const char *base = (const char *)cfg + c->offset;
    if (c->type == SKMD_CONTROL_TYPE_bool || c->type == SKMD_CONTROL_TYPE_int)
        snprintf(out, size, "%d", *(const int *)(const void *)base);
    else if (c->type == SKMD_CONTROL_TYPE_choice)
        snprintf(out, size, "%s", skmd_control_word(c, *(const int *)(const void *)base));
    else
        snprintf(out, size, "%s", *(const char *const *)(const void *)base);
}

/* The controls whose value differs from what an environment without SKMD_* gives. */
static void show_controls(void)
{
    size_t n = 0;
    while (environ[n])
        n++;
    char **plain = calloc(n + 1, sizeof *plain);
    if (!plain) {
        fprintf(stderr, "skmd-info: out of memory\n");
        exit(1);
    }
    for (size_t i = 0, j = 0; i < n; i++)
        if (strncmp(environ[i], "SKMD_", 5) != 0)
            plain[j++] = environ[i];
    struct skmd_config defaults;
    skmd_config_parse(&defaults, plain, NULL);
    free(plain);
    begin_list("controls", "Controls set away from their defaults");
    int shown = 0;
    for (size_t i = 0; i < skmd_control_count; i++) {
        const struct skmd_control_info *c = skmd_control_at(i);
        char now[1024], def[1024];
        field_of(skmd_config(), c, now, sizeof now);
        field_of(&defaults, c, def, sizeof def);
        if (strcmp(now, def) == 0)
            continue;
        shown++;
        if (json) {
            begin(NULL, c->env);
            field_text("variable", "variable", c->env);
            field_text("value", "value", now);
            field_text("default", "default", def);
            end();
        } else {
            printf("%*s%s=%s (default: %s)\n", depth * 2, "", c->env, now, def[0] ? def : "\"\"");
        }
    }
    if (!shown && !json)
        printf("%*snone\n", depth * 2, "");
    end_list();
    skmd_config_release(&defaults);
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            print_help(stdout);
            return 0;
        } else if (strcmp(argv[i], "--version") == 0) {
            printf("skmd-info (libskmd) %s\n", SKMD_VERSION);
            return 0;
        } else if (strcmp(argv[i], "--json") == 0) {
            json = 1;
        } else {
            fprintf(stderr, "skmd-info: unknown option %s; the options are --json, --help and --version\n",
                    argv[i]);
            return 2;
        }
    }
    skmd_init();
    if (json)
        putchar('{');
    int available = show_virtual_device() == 0;
    static void (*const sections[])(void) = {show_members, show_profile, show_cache,
                                             show_controls};
    for (size_t i = 0; i < sizeof sections / sizeof sections[0]; i++) {
        if (!json)
            putchar('\n'); /* a blank line between the text's sections */
        sections[i]();
    }
    if (json)
        printf("}\n");
    return available ? 0 : 1;
}
