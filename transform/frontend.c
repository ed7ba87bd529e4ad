/* transform/frontend.c: runs clang as a child process on OpenCL C and reads its bitcode. */
#include "frontend.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include <llvm-c/BitReader.h>
#include <llvm-c/IRReader.h>

#define ERR(...) (err && err_size ? snprintf(err, err_size, __VA_ARGS__) : 0)

/* The -cl-* options of OpenCL 1.2-3.0 that clang takes as they are. The rest
 * (-cl-opt-disable, vendor ones such as -cl-nv-verbose) do not change what a kernel
 * computes here and are dropped. */
static const char *const clang_cl_options[] = {
    "-cl-single-precision-constant", "-cl-denorms-are-zero",
    "-cl-fp32-correctly-rounded-divide-sqrt", "-cl-mad-enable", "-cl-no-signed-zeros",
    "-cl-unsafe-math-optimizations", "-cl-finite-math-only", "-cl-fast-relaxed-math",
    "-cl-kernel-arg-info", "-cl-uniform-work-group-size", "-w", "-Werror",
};

struct arg_list {
    char **v;
    size_t n, cap;
};

static int push(struct arg_list *l, const char *s, size_t len)
{
    if (l->n + 2 > l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 16;
        char **grown = realloc(l->v, cap * sizeof *grown);
        if (!grown)
            return -1;
        l->v = grown;
        l->cap = cap;
    }
    char *copy = strndup(s, len);
    if (!copy)
        return -1;
    l->v[l->n++] = copy;
    l->v[l->n] = NULL;
    return 0;
}

void skmd_frontend_free_args(char **args)
{
    if (!args)
        return;
    for (char **a = args; *a; a++)
        free(*a);
    free(args);
}

/* Next whitespace-separated word of *p (double quotes group, backslash escapes), written
 * into buf. Returns 0 at the end, 1 with a word, -1 on an unterminated quote. */
static int next_word(const char **p, char *buf)
{
    const char *s = *p;
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
        s++;
    if (!*s) {
        *p = s;
        return 0;
    }
    size_t n = 0;
    int quoted = 0;
    for (; *s; s++) {
        if (*s == '"') {
            quoted = !quoted;
            continue;
        }
        if (*s == '\\' && s[1]) {
            buf[n++] = *++s;
            continue;
        }
        if (!quoted && (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r'))
            break;
        buf[n++] = *s;
    }
    buf[n] = '\0';
    *p = s;
    return quoted ? -1 : 1;
}

char **skmd_frontend_clang_args(const char *options, int *has_std, int verbose, char *err,
                                size_t err_size)
{
    struct arg_list l = {0};
    *has_std = 0;
    l.cap = 16; /* a NULL-terminated array even when there are no options */
    l.v = calloc(l.cap, sizeof *l.v);
    if (!l.v)
        goto oom;
    if (!options)
        return l.v;
    char *word = malloc(strlen(options) + 1);
    if (!word)
        goto oom;
    const char *p = options;
    int r;
    while ((r = next_word(&p, word)) == 1) {
        if (!strcmp(word, "-D") || !strcmp(word, "-I") || !strcmp(word, "-U")) {
            char flag[3] = {word[0], word[1], 0};
            if (next_word(&p, word) != 1) {
                ERR("build option %s needs a value", flag);
                free(word);
                skmd_frontend_free_args(l.v);
                return NULL;
            }
            if (push(&l, flag, 2) < 0 || push(&l, word, strlen(word)) < 0)
                goto oom_word;
            continue;
        }
        int keep = !strncmp(word, "-D", 2) || !strncmp(word, "-I", 2) ||
                   !strncmp(word, "-U", 2);
        if (!strncmp(word, "-cl-std=", 8)) {
            keep = 1;
            *has_std = 1;
        }
        for (size_t i = 0; !keep && i < sizeof clang_cl_options / sizeof *clang_cl_options; i++)
            keep = !strcmp(word, clang_cl_options[i]);
        if (!keep) {
            if (verbose)
                fprintf(stderr, "skmd-opt: build option %s dropped (clang does not need it)\n",
                        word);
            continue;
        }
        if (push(&l, word, strlen(word)) < 0)
            goto oom_word;
    }
    free(word);
    if (r < 0) {
        ERR("unterminated quote in build options");
        skmd_frontend_free_args(l.v);
        return NULL;
    }
    return l.v;
oom_word:
    free(word);
oom:
    ERR("out of memory");
    skmd_frontend_free_args(l.v);
    return NULL;
}

/* Runs argv, waits; 0 when it exited with status 0. Its stdout goes to our stderr so that
 * our stdout stays clean for the output. */
static int run_child(char *const argv[], char *err, size_t err_size)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        ERR("fork: %s", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        dup2(STDERR_FILENO, STDOUT_FILENO);
        execvp(argv[0], argv);
        fprintf(stderr, "skmd-opt: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            ERR("waitpid: %s", strerror(errno));
            return -1;
        }
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
        ERR("cannot run %s", argv[0]);
    else
        ERR("%s failed on the OpenCL source (status %d)", argv[0],
            WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
    return -1;
}

/* The -cl-std the app's options ask for ("CL3.0", ...), or NULL; the last one wins, as
 * in clang. */
static const char *asked_std(const char *options, size_t *len)
{
    const char *found = NULL;
    for (const char *p = options; p && (p = strstr(p, "-cl-std=")); p += 8) {
        found = p + 8;
        *len = strcspn(found, " \t\n\r\"");
    }
    return found;
}

/* Appends "+NAME," (to ext) and "-DNAME=1" (to l) for each word of list. */
static int add_words(struct arg_list *l, char **ext, size_t *ext_len, const char *list)
{
    for (const char *p = list; p && *p;) {
        p += strspn(p, " \t\n");
        size_t n = strcspn(p, " \t\n");
        if (!n)
            break;
        char *grown = realloc(*ext, *ext_len + n + 3);
        if (!grown)
            return -1;
        *ext = grown;
        *ext_len += (size_t)sprintf(grown + *ext_len, ",+%.*s", (int)n, p);
        char def[300];
        snprintf(def, sizeof def, "-D%.*s=1", (int)(n < 280 ? n : 280), p);
        if (push(l, def, strlen(def)) < 0)
            return -1;
        p += n;
    }
    return 0;
}

char **skmd_frontend_extension_args(const char *extensions, const char *features,
                                    const char *options, const char *default_std)
{
    struct arg_list l = {0};
    size_t std_len = 0;
    const char *std = asked_std(options, &std_len);
    if (!std && default_std) {
        char word[64];
        snprintf(word, sizeof word, "-cl-std=%s", default_std);
        if (push(&l, word, strlen(word)) < 0)
            return NULL;
        std = default_std;
        std_len = strlen(std);
    }
    int cl3 = std && std_len == 5 && !strncasecmp(std, "CL3.0", 5);
    char *ext = strdup("-cl-ext=-all");
    size_t ext_len = ext ? strlen(ext) : 0;
    if (!ext || add_words(&l, &ext, &ext_len, extensions) ||
        (cl3 && add_words(&l, &ext, &ext_len, features)) || push(&l, "-Xclang", 7) < 0 ||
        push(&l, ext, ext_len) < 0) {
        free(ext);
        skmd_frontend_free_args(l.v);
        return NULL;
    }
    free(ext);
    return l.v;
}

LLVMModuleRef skmd_frontend_cl(LLVMContextRef c, const char *path, const char *options,
                               const char *clang, const char *triple, char *const *extra,
                               int verbose, char *err, size_t err_size)
{
    int has_std = 0;
    char **user = skmd_frontend_clang_args(options, &has_std, verbose, err, err_size);
    if (!user)
        return NULL;
    size_t nuser = 0;
    while (user[nuser])
        nuser++;

    const char *tmpdir = getenv("TMPDIR");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/skmd-fe-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    if (!mkdtemp(dir)) {
        ERR("mkdtemp %s: %s", dir, strerror(errno));
        skmd_frontend_free_args(user);
        return NULL;
    }
    char out[4200];
    snprintf(out, sizeof out, "%s/out.bc", dir);

    /* -O1 with LLVM's passes off: our own clean-up and the driver optimise later, but
     * clang's code generation is that of an optimising build. At -O0 clang drops the body
     * of a C99 `inline` function that is neither static nor extern (OpenCL C's most common
     * helper style): the module would call a function it never defines, which PoCL's link
     * of the split program rejects. At -O1 the body comes as available_externally, and
     * inline.c inlines it. -g: line numbers for the analysis' reasons. Opaque pointers:
     * LLVM 15 still defaults to typed ones for SPIR. */
    const char *fixed[] = {
        clang, "-x", "cl", "-emit-llvm", "-c", "-O1", "-Xclang", "-disable-llvm-passes",
        "-g", "-Xclang", "-finclude-default-header", "-target", triple,
#if SKMD_LLVM_MAJOR < 17 /* clang 17 dropped the flag (opaque is all it has) */
        "-Xclang", "-opaque-pointers",
#endif
    };
    size_t nfixed = sizeof fixed / sizeof *fixed, nextra = 0;
    while (extra && extra[nextra])
        nextra++;
    char **argv = calloc(nfixed + nextra + nuser + 7, sizeof *argv);
    LLVMModuleRef m = NULL;
    if (!argv) {
        ERR("out of memory");
        goto done;
    }
    size_t k = 0;
    for (size_t i = 0; i < nfixed; i++)
        argv[k++] = (char *)fixed[i];
    for (size_t i = 0; i < nextra; i++)
        has_std |= !strncmp(extra[i], "-cl-std=", 8);
    if (!has_std) /* the specification's default for a device of OpenCL C 1.2 or later */
        argv[k++] = "-cl-std=CL1.2";
    for (size_t i = 0; i < nextra; i++)
        argv[k++] = extra[i];
    for (size_t i = 0; i < nuser; i++)
        argv[k++] = user[i];
    /* The same source gives the same bits from whichever temporary file it was read:
     * the drivers' own caches (PoCL's, NVIDIA's) key the split program by its bytes. */
    char prefix_map[4200];
    snprintf(prefix_map, sizeof prefix_map, "-ffile-prefix-map=%s=program.cl", path);
    argv[k++] = prefix_map;
    argv[k++] = "-fdebug-compilation-dir=.";
    argv[k++] = (char *)path;
    argv[k++] = "-o";
    argv[k++] = out;
    argv[k] = NULL;
    if (verbose) {
        fprintf(stderr, "skmd-opt: running");
        for (size_t i = 0; argv[i]; i++)
            fprintf(stderr, " %s", argv[i]);
        fprintf(stderr, "\n");
    }
    if (run_child(argv, err, err_size) == 0)
        m = skmd_frontend_read_ir(c, out, err, err_size);
    if (m)
        LLVMSetSourceFileName(m, "program.cl", strlen("program.cl"));
done:
    free(argv);
    unlink(out);
    rmdir(dir);
    skmd_frontend_free_args(user);
    return m;
}

LLVMModuleRef skmd_frontend_read_ir(LLVMContextRef c, const char *path, char *err,
                                    size_t err_size)
{
    LLVMMemoryBufferRef buf = NULL;
    char *msg = NULL;
    if (LLVMCreateMemoryBufferWithContentsOfFile(path, &buf, &msg)) {
        ERR("cannot read %s: %s", path, msg ? msg : "?");
        LLVMDisposeMessage(msg);
        return NULL;
    }
    LLVMModuleRef m = NULL;
    /* Takes ownership of buf, success or not. */
    if (LLVMParseIRInContext(c, buf, &m, &msg)) {
        ERR("%s: %s", path, msg ? msg : "not LLVM IR");
        LLVMDisposeMessage(msg);
        return NULL;
    }
    return m;
}
