/* libskmd/cl/compiler_run.c: starts the kernel compiler helper, or answers from the memo
 * of its earlier answers (see compiler_run.h). The child gets the environment without
 * LD_PRELOAD, so it never loads libskmd (nor a driver's LLVM next to its own). */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cl/compiler_run.h"
#include "support/config.h"
#include "support/hash.h"

extern char **environ;

/* SKMD_COMPILER, else <libdir>/../tools/skmd-opt, <libdir>/skmd-opt, then PATH. */
static void compiler_path(char *out, size_t size)
{
    const char *cfg = skmd_config()->compiler;
    if (cfg[0]) {
        snprintf(out, size, "%s", cfg);
        return;
    }
    Dl_info info;
    if (dladdr((void *)compiler_path, &info) && info.dli_fname) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s", info.dli_fname);
        char *slash = strrchr(dir, '/');
        if (slash) {
            *slash = '\0';
            snprintf(out, size, "%s/../tools/skmd-opt", dir);
            if (access(out, X_OK) == 0)
                return;
            snprintf(out, size, "%s/skmd-opt", dir);
            if (access(out, X_OK) == 0)
                return;
        }
    }
    snprintf(out, size, "skmd-opt");
}

static int mkdir_p(const char *path)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(buf, 0755) != 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    return mkdir(buf, 0755) == 0 || errno == EEXIST ? 0 : -1;
}

/* Starts the helper on the request; fills `dir` with the entry it printed. */
static int spawn_compiler(const struct skmd_compile_request *req, const char *compiler_in,
                          const char *cache_dir, char *dir, size_t dir_size, char *why,
                          size_t why_size)
{
    const char *tmp = getenv("TMPDIR");
    char src[4096], errf[4096], compiler[4096], cache[4096];
    snprintf(src, sizeof src, "%s/skmd-src-XXXXXX.cl", tmp && tmp[0] ? tmp : "/tmp");
    snprintf(errf, sizeof errf, "%s/skmd-err-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
    snprintf(cache, sizeof cache, "%s", cache_dir);
    snprintf(compiler, sizeof compiler, "%s", compiler_in);
    int sfd = mkstemps(src, 3), efd = mkstemp(errf);
    int pipefd[2] = {-1, -1};
    int rc = -1;
    size_t n = strlen(req->source);
    if (sfd < 0 || efd < 0 || write(sfd, req->source, n) != (ssize_t)n || pipe(pipefd) != 0) {
        snprintf(why, why_size, "cannot write a temporary file: %s", strerror(errno));
        goto out;
    }
    /* The environment less LD_PRELOAD: the helper must load neither libskmd nor the
     * app's preloads (e.g. the ASan runtime of `make SAN=1`, which an uninstrumented
     * helper would then run under). The sanitizer options stay: an instrumented helper
     * needs their leak suppressions, an uninstrumented one ignores them. */
    size_t nenv = 0;
    while (environ[nenv])
        nenv++;
    char **env = calloc(nenv + 1, sizeof *env);
    if (!env) {
        snprintf(why, why_size, "out of memory");
        goto out;
    }
    for (size_t i = 0, k = 0; i < nenv; i++)
        if (strncmp(environ[i], "LD_PRELOAD=", 11) != 0)
            env[k++] = environ[i];
    char *argv[] = {compiler, src, "--compile", "--cache", cache, "--target",
                    (char *)req->target, "--options",
                    (char *)(req->options ? req->options : ""), "--default-std",
                    (char *)req->std, "--extensions", (char *)req->extensions, "--features",
                    (char *)req->features, NULL};
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
    posix_spawn_file_actions_adddup2(&fa, efd, 2);
    posix_spawn_file_actions_addclose(&fa, pipefd[0]);
    pid_t pid;
    int serr = posix_spawnp(&pid, compiler, &fa, NULL, argv, env);
    posix_spawn_file_actions_destroy(&fa);
    free(env);
    close(pipefd[1]);
    pipefd[1] = -1;
    if (serr != 0) {
        snprintf(why, why_size, "cannot run %s: %s", compiler, strerror(serr));
        goto out;
    }
    size_t got = 0;
    ssize_t r;
    while ((r = read(pipefd[0], dir + got, dir_size - 1 - got)) > 0 && got < dir_size - 1)
        got += (size_t)r;
    dir[got] = '\0';
    dir[strcspn(dir, "\n")] = '\0';
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && dir[0]) {
        rc = 0;
        goto out;
    }
    /* The compiler's last message line says why. */
    char msg[2048] = "";
    ssize_t len = pread(efd, msg, sizeof msg - 1, 0);
    msg[len > 0 ? len : 0] = '\0';
    while (len > 0 && (msg[len - 1] == '\n' || msg[len - 1] == ' '))
        msg[--len] = '\0';
    char *last = strrchr(msg, '\n');
    snprintf(why, why_size, "%s failed (status %d): %s", compiler,
             WIFEXITED(status) ? WEXITSTATUS(status) : -1, last ? last + 1 : msg);
out:
    if (sfd >= 0) {
        close(sfd);
        unlink(src);
    }
    if (efd >= 0) {
        close(efd);
        unlink(errf);
    }
    if (pipefd[0] >= 0)
        close(pipefd[0]);
    if (pipefd[1] >= 0)
        close(pipefd[1]);
    return rc;
}

/* The memo's key: every argument the helper gets, and the helper's file as it is now.
 * 0 when the helper's file cannot be looked at (no memo then). */
static int memo_key(const struct skmd_compile_request *req, const char *compiler,
                    char key[33])
{
    struct stat st;
    if (!strchr(compiler, '/') || stat(compiler, &st) != 0)
        return 0;
    const char *fields[] = {req->source,   req->options ? req->options : "", req->target,
                            req->std,      req->extensions, req->features, compiler};
    uint64_t a = SKMD_FNV_BASIS, b = 0x84222325cbf29ce4ULL;
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        uint64_t len = strlen(fields[i]); /* the length keeps the fields apart */
        a = skmd_fnv(skmd_fnv(a, &len, sizeof len), fields[i], len);
        b = skmd_fnv(skmd_fnv(b, fields[i], len), &len, sizeof len);
    }
    long long file[] = {(long long)st.st_dev, (long long)st.st_ino, (long long)st.st_size,
                        (long long)st.st_mtim.tv_sec, (long long)st.st_mtim.tv_nsec};
    a = skmd_fnv(a, file, sizeof file);
    b = skmd_fnv(b, file, sizeof file);
    snprintf(key, 33, "%016llx%016llx", (unsigned long long)a, (unsigned long long)b);
    return 1;
}

/* The entry the memo names, when it is still whole (its kernels file is there). */
static int memo_find(const char *memo, const char *target, char *dir, size_t dir_size)
{
    FILE *f = fopen(memo, "r");
    if (!f)
        return 0;
    int ok = fgets(dir, (int)dir_size, f) != NULL;
    fclose(f);
    if (!ok)
        return 0;
    dir[strcspn(dir, "\n")] = '\0';
    char path[4200];
    struct stat st;
    snprintf(path, sizeof path, "%s/kernels.%s", dir, strcmp(target, "nvptx") ? "bc" : "ptx");
    return dir[0] && stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Writes the memo whole or not at all (a temporary file renamed over it): processes that
 * compile the same source at once each write the same line. */
static void memo_save(const char *memo_dir, const char *memo, const char *dir)
{
    if (mkdir_p(memo_dir) != 0)
        return;
    char tmp[4400];
    snprintf(tmp, sizeof tmp, "%s.XXXXXX", memo);
    int fd = mkstemp(tmp);
    if (fd < 0)
        return;
    size_t n = strlen(dir);
    int ok = write(fd, dir, n) == (ssize_t)n && write(fd, "\n", 1) == 1;
    ok = close(fd) == 0 && ok;
    if (!ok || rename(tmp, memo) != 0)
        unlink(tmp);
}

int skmd_compiler_run(const struct skmd_compile_request *req, char *dir, size_t dir_size,
                      int *ran, char *why, size_t why_size)
{
    char compiler[4096], cache[4096], memo_dir[4200], memo[4300], key[33];
    snprintf(cache, sizeof cache, "%s/kernels", skmd_config()->cache_dir);
    compiler_path(compiler, sizeof compiler);
    *ran = 0;
    if (mkdir_p(cache) != 0) {
        snprintf(why, why_size, "cannot create the cache directory %s", cache);
        return -1;
    }
    int keyed = memo_key(req, compiler, key);
    snprintf(memo_dir, sizeof memo_dir, "%s/memo", cache);
    snprintf(memo, sizeof memo, "%s/%s", memo_dir, keyed ? key : "");
    if (keyed && memo_find(memo, req->target, dir, dir_size))
        return 0;
    *ran = 1;
    int rc = spawn_compiler(req, compiler, cache, dir, dir_size, why, why_size);
    if (rc == 0 && keyed)
        memo_save(memo_dir, memo, dir);
    return rc;
}
