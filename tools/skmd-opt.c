/* skmd-opt: libskmd's kernel compiler, run as a child process by the runtime (so that
 * libskmd.so never links LLVM) and by hand for tests. See docs/transform.md. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>

#include "../libskmd/support/version.h"
#include "../transform/cache.h"
#include "../transform/context.h"
#include "../transform/frontend.h"
#include "../transform/passes.h"
#if SKMD_HAVE_ANALYSIS
#include "../transform/record.h"
#endif

/* Part of every cache key: bump when the output of the same input changes for a reason
 * outside the sources (the build's digest of them, SKMD_OPT_DIGEST, covers those). */
#define SKMD_OPT_VERSION "4"
#ifndef SKMD_OPT_DIGEST
#define SKMD_OPT_DIGEST "-"
#endif

#ifndef SKMD_DEFAULT_CLANG
#define SKMD_DEFAULT_CLANG "clang"
#endif
#ifndef SKMD_DEFAULT_LIBCLC
#define SKMD_DEFAULT_LIBCLC "/usr/lib/clc/nvptx64--nvidiacl.bc"
#endif

static void usage(FILE *to)
{
    fprintf(to,
            "usage: skmd-opt [options] INPUT (.cl OpenCL C, .ll or .bc LLVM IR)\n"
            "  --analyze             print the analysis record as JSON\n"
            "  --partition-ready     append the hidden launch parameters, remap work-item ids\n"
            "  --merge               also make NAME__skmd_merge kernels (implies\n"
            "                        --partition-ready)\n"
            "  --lower=pocl|nvptx    finish for a driver: PoCL bitcode, or NVIDIA PTX\n"
            "  -o FILE               output (.bc: bitcode, .ptx: PTX, else LLVM IR text);\n"
            "                        default stdout (IR text or PTX)\n"
            "  --kernel NAME         only this kernel\n"
            "  --options \"OPTS\"      the app's build options (-D, -I, -cl-std=, -cl-...)\n"
            "  --target pocl|nvptx   front-end target (default pocl; --lower=nvptx sets it)\n"
            "  --extensions \"EXTS\"  compile with exactly these extensions enabled (the\n"
            "                        target device's CL_DEVICE_EXTENSIONS); default: clang's\n"
            "  --features \"FEATS\"   its OpenCL C 3.0 features (under -cl-std=CL3.0)\n"
            "  --default-std CLx.y   the -cl-std its driver uses when OPTS name none\n"
            "                        (default CL1.2)\n"
            "  --clang PATH          the clang to run (default %s)\n"
            "  --libclc PATH         libclc for NVPTX (default %s)\n"
            "  --nvptx-fp nvidia|strict  NVPTX floating point as NVIDIA's OpenCL compiler\n"
            "                        does it (default), or LLVM's correctly rounded defaults\n"
            "  --libdevice PATH      NVPTX: math builtins from NVIDIA's libdevice.10.bc\n"
            "  --compile --cache DIR --target T   the runtime's mode: compile INPUT into the\n"
            "                        cache (record.txt + kernels.bc|kernels.ptx), print the\n"
            "                        entry's directory\n"
            "  -v, --verbose         explain on stderr\n"
            "  --timings             milliseconds per step on stderr\n"
            "  --help\n"
            "  --version\n"
            "  --digest              the digest of the compiler's sources in every cache key\n"
            "Exit status: 0 done; 1 not splittable / compile error (reason on stderr);\n"
            "2 bad usage.\n",
            SKMD_DEFAULT_CLANG, SKMD_DEFAULT_LIBCLC);
}

struct cli {
    const char *input, *output, *kernel, *options, *clang, *libclc, *cache, *target;
    const char *lower, *extensions, *features, *default_std, *nvptx_fp, *libdevice;
    int analyze, partition_ready, merge, compile, verbose, timings;
};

/* --timings: milliseconds per step since the previous mark, printed on stderr at exit, so
 * that the benchmark can say where the time goes. */
static struct {
    int on, n;
    double last;
    const char *name[16];
    double ms[16];
} timing;

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void mark(const char *step)
{
    if (!timing.on || timing.n == 16)
        return;
    double t = now_ms();
    timing.name[timing.n] = step;
    timing.ms[timing.n++] = t - timing.last;
    timing.last = t;
}

static void print_timings(void)
{
    if (!timing.on)
        return;
    fprintf(stderr, "skmd-opt timings ms:");
    for (int i = 0; i < timing.n; i++)
        fprintf(stderr, " %s=%.2f", timing.name[i], timing.ms[i]);
    fprintf(stderr, "\n");
}

static int parse_args(int argc, char **argv, struct cli *c)
{
    enum { O_ANALYZE = 256, O_PR, O_MERGE, O_LOWER, O_KERNEL, O_OPTIONS, O_TARGET, O_CLANG,
           O_LIBCLC, O_COMPILE, O_CACHE, O_TIMINGS, O_EXTENSIONS, O_FEATURES, O_DEFAULT_STD,
           O_NVPTX_FP, O_LIBDEVICE, O_HELP, O_VERSION, O_DIGEST };
    static const struct option longs[] = {
        {"analyze", no_argument, NULL, O_ANALYZE},
        {"partition-ready", no_argument, NULL, O_PR},
        {"merge", no_argument, NULL, O_MERGE},
        {"lower", required_argument, NULL, O_LOWER},
        {"kernel", required_argument, NULL, O_KERNEL},
        {"options", required_argument, NULL, O_OPTIONS},
        {"target", required_argument, NULL, O_TARGET},
        {"clang", required_argument, NULL, O_CLANG},
        {"libclc", required_argument, NULL, O_LIBCLC},
        {"compile", no_argument, NULL, O_COMPILE},
        {"cache", required_argument, NULL, O_CACHE},
        {"verbose", no_argument, NULL, 'v'},
        {"timings", no_argument, NULL, O_TIMINGS},
        {"extensions", required_argument, NULL, O_EXTENSIONS},
        {"features", required_argument, NULL, O_FEATURES},
        {"default-std", required_argument, NULL, O_DEFAULT_STD},
        {"nvptx-fp", required_argument, NULL, O_NVPTX_FP},
        {"libdevice", required_argument, NULL, O_LIBDEVICE},
        {"help", no_argument, NULL, O_HELP},
        {"version", no_argument, NULL, O_VERSION},
        {"digest", no_argument, NULL, O_DIGEST},
        {NULL, 0, NULL, 0},
    };
    memset(c, 0, sizeof *c);
    c->clang = SKMD_DEFAULT_CLANG;
    c->libclc = SKMD_DEFAULT_LIBCLC;
    int opt;
    opterr = 0; /* one line of our own below, not getopt's and the whole usage */
    while ((opt = getopt_long(argc, argv, "o:v", longs, NULL)) != -1) {
        switch (opt) {
        case 'o': c->output = optarg; break;
        case 'v': c->verbose = 1; break;
        case O_ANALYZE: c->analyze = 1; break;
        case O_PR: c->partition_ready = 1; break;
        case O_MERGE: c->merge = c->partition_ready = 1; break;
        case O_LOWER: c->lower = optarg; break;
        case O_KERNEL: c->kernel = optarg; break;
        case O_OPTIONS: c->options = optarg; break;
        case O_TARGET: c->target = optarg; break;
        case O_CLANG: c->clang = optarg; break;
        case O_LIBCLC: c->libclc = optarg; break;
        case O_COMPILE: c->compile = 1; break;
        case O_CACHE: c->cache = optarg; break;
        case O_TIMINGS: c->timings = 1; break;
        case O_EXTENSIONS: c->extensions = optarg; break;
        case O_FEATURES: c->features = optarg; break;
        case O_DEFAULT_STD: c->default_std = optarg; break;
        case O_NVPTX_FP: c->nvptx_fp = optarg; break;
        case O_LIBDEVICE: c->libdevice = optarg; break;
        case O_HELP: usage(stdout); exit(0);
        case O_VERSION: printf("skmd-opt (libskmd) %s\n", SKMD_VERSION); exit(0);
        case O_DIGEST: printf("%s\n", SKMD_OPT_DIGEST); exit(0);
        default:
            fprintf(stderr, "skmd-opt: unknown option or missing value: %s (skmd-opt --help)\n",
                    argv[optind - 1]);
            return -1;
        }
    }
    if (optind != argc - 1) {
        fprintf(stderr, "skmd-opt: expected one input file\n");
        usage(stderr);
        return -1;
    }
    c->input = argv[optind];
    if (c->lower && strcmp(c->lower, "pocl") && strcmp(c->lower, "nvptx")) {
        fprintf(stderr, "skmd-opt: --lower takes pocl or nvptx, not '%s'\n", c->lower);
        return -1;
    }
    if (c->nvptx_fp && strcmp(c->nvptx_fp, "nvidia") && strcmp(c->nvptx_fp, "strict")) {
        fprintf(stderr, "skmd-opt: --nvptx-fp takes nvidia or strict, not '%s'\n", c->nvptx_fp);
        return -1;
    }
    if (c->target && strcmp(c->target, "pocl") && strcmp(c->target, "nvptx")) {
        fprintf(stderr, "skmd-opt: --target takes pocl or nvptx, not '%s'\n", c->target);
        return -1;
    }
    if (!c->target)
        c->target = c->lower ? c->lower : "pocl";
    if (c->lower && strcmp(c->lower, c->target)) {
        fprintf(stderr, "skmd-opt: --lower=%s contradicts --target %s\n", c->lower, c->target);
        return -1;
    }
    if (c->compile && !c->cache) {
        fprintf(stderr, "skmd-opt: --compile needs --cache DIR\n");
        return -1;
    }
    return 0;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

/* Reads INPUT: OpenCL C through clang, or IR as it is. */
static LLVMModuleRef load_input(LLVMContextRef llvm, const struct cli *c, char *err,
                                size_t err_size)
{
    if (ends_with(c->input, ".ll") || ends_with(c->input, ".bc"))
        return skmd_frontend_read_ir(llvm, c->input, err, err_size);
    const char *triple = strcmp(c->target, "nvptx") ? SKMD_TRIPLE_SPIR64 : SKMD_TRIPLE_NVPTX64;
    char **ext = NULL;
    if (c->extensions || c->features || c->default_std) {
        ext = skmd_frontend_extension_args(c->extensions, c->features, c->options,
                                           c->default_std);
        if (!ext) {
            snprintf(err, err_size, "out of memory");
            return NULL;
        }
    }
    LLVMModuleRef m = skmd_frontend_cl(llvm, c->input, c->options, c->clang, triple, ext,
                                       c->verbose, err, err_size);
    skmd_frontend_free_args(ext);
    return m;
}

static int write_module(LLVMModuleRef m, const char *output)
{
    if (output && ends_with(output, ".bc")) {
        if (LLVMWriteBitcodeToFile(m, output)) {
            fprintf(stderr, "skmd-opt: cannot write %s\n", output);
            return -1;
        }
        return 0;
    }
    char *text = LLVMPrintModuleToString(m);
    FILE *f = output ? fopen(output, "w") : stdout;
    int rc = 0;
    if (!f) {
        fprintf(stderr, "skmd-opt: cannot write %s: %s\n", output, strerror(errno));
        rc = -1;
    } else {
        if (fputs(text, f) < 0)
            rc = -1;
        if (f != stdout && fclose(f))
            rc = -1;
    }
    LLVMDisposeMessage(text);
    return rc;
}

/* The passes the command line asks for, in their fixed order. *rec is filled when the
 * analysis runs. */
static int transform(LLVMModuleRef m, const struct cli *c, struct skmd_pass_opts *opts,
                     int want_analysis)
{
    if (skmd_pass_inline(m, opts))
        return -1;
    mark("inline");
    if (skmd_pass_cleanup(m, opts))
        return -1;
    mark("cleanup");
    if (want_analysis) {
#if SKMD_HAVE_ANALYSIS
        if (skmd_pass_analyze(m, opts))
            return -1;
#else
        if (c->analyze)
            return skmd_pass_fail(opts, "--analyze: the analysis is not built yet");
#endif
        mark("analyze");
    }
    if (c->partition_ready && skmd_pass_partition_ready(m, opts))
        return -1;
    mark("partition_ready");
    if (c->merge) {
#if SKMD_HAVE_MERGE
        if (skmd_pass_merge(m, opts))
            return -1;
#else
        if (!c->compile)
            return skmd_pass_fail(opts, "--merge: the merge pass is not built yet");
#endif
        mark("merge");
    }
    if (c->lower && !strcmp(c->lower, "pocl") && skmd_pass_lower_pocl(m, opts))
        return -1;
    if (c->lower && !strcmp(c->lower, "nvptx") && skmd_pass_lower_nvptx(m, opts))
        return -1;
    if (c->lower)
        mark("lower");
    return 0;
}

/* Writes the result: PTX text after --lower=nvptx, else IR (bitcode for a .bc name). */
static int write_output(LLVMModuleRef m, const struct cli *c, const char *output,
                        struct skmd_pass_opts *opts)
{
    if (!c->lower || strcmp(c->lower, "nvptx"))
        return write_module(m, output);
    char *ptx = NULL;
    size_t len = 0;
    if (skmd_emit_ptx(m, opts, &ptx, &len))
        return -1;
    FILE *f = output ? fopen(output, "w") : stdout;
    int rc = f && fwrite(ptx, 1, len, f) == len ? 0 : -1;
    if (f && f != stdout && fclose(f))
        rc = -1;
    if (rc)
        skmd_pass_fail(opts, "cannot write %s", output ? output : "stdout");
    free(ptx);
    return rc;
}

#if SKMD_HAVE_ANALYSIS
static int write_record(const struct skmd_program_record *rec, const char *path, int json)
{
    FILE *f = path ? fopen(path, "w") : stdout;
    if (!f)
        return -1;
    int rc = json ? skmd_record_write_json(f, rec) : skmd_record_write(f, rec);
    if (f != stdout && fclose(f))
        rc = -1;
    return rc;
}
#endif

/* --compile: the runtime's entry. Prints the cache entry's directory. */
static int compile_into_cache(LLVMContextRef llvm, struct cli *c, struct skmd_pass_opts *opts)
{
    char key[SKMD_CACHE_KEY_LEN + 1], dir[4096], tmp[4096], path[4200];
    /* The extensions and features change what the source means: part of the key. */
    char *identity = NULL;
    int nv = !strcmp(c->target, "nvptx");
    if (asprintf(&identity, "skmd-opt %s %s llvm %d clang %s libclc %s fp %s libdevice %s "
                 "extensions %c%s features %c%s std %s", SKMD_OPT_VERSION, SKMD_OPT_DIGEST,
                 SKMD_LLVM_MAJOR,
                 c->clang, nv ? c->libclc : "-", nv && c->nvptx_fp ? c->nvptx_fp : "-",
                 nv && c->libdevice ? c->libdevice : "-", c->extensions ? '=' : '-',
                 c->extensions ? c->extensions : "", c->features ? '=' : '-',
                 c->features ? c->features : "",
                 c->default_std ? c->default_std : "-") < 0)
        return skmd_pass_fail(opts, "out of memory");
    int bad = skmd_cache_key(c->input, c->options, c->target, identity, key, opts->err,
                             opts->err_size);
    free(identity);
    if (bad)
        return -1;
    if (skmd_cache_entry(c->cache, key, dir, sizeof dir)) {
        if (c->verbose)
            fprintf(stderr, "skmd-opt: cache hit %s\n", dir);
        printf("%s\n", dir);
        return 0;
    }
    c->partition_ready = c->merge = 1;
    c->lower = c->target;
    mark("cache_lookup");
    LLVMModuleRef m = load_input(llvm, c, opts->err, opts->err_size);
    if (!m)
        return -1;
    mark("frontend");
    int rc = transform(m, c, opts, 1);
    if (!rc)
        rc = skmd_cache_begin(c->cache, key, tmp, sizeof tmp, opts->err, opts->err_size);
    if (!rc) {
        snprintf(path, sizeof path, "%s/kernels.%s", tmp,
                 strcmp(c->target, "nvptx") ? "bc" : "ptx");
        rc = write_output(m, c, path, opts);
#if SKMD_HAVE_ANALYSIS
        snprintf(path, sizeof path, "%s/record.txt", tmp);
        if (!rc && write_record(opts->record, path, 0))
            rc = skmd_pass_fail(opts, "cannot write %s", path);
#endif
        if (rc)
            skmd_cache_abandon(tmp);
        else
            rc = skmd_cache_commit(tmp, dir, opts->err, opts->err_size);
        mark("write");
    }
    LLVMDisposeModule(m);
    if (!rc)
        printf("%s\n", dir);
    return rc;
}

int main(int argc, char **argv)
{
    struct cli c;
    if (parse_args(argc, argv, &c))
        return 2;
    timing.on = c.timings;
    timing.last = now_ms();
    char err[1024] = "";
    struct skmd_pass_opts opts = {
        .kernel_name = c.kernel,
        .build_options = c.options,
        .libclc_path = c.libclc,
        .nvptx_fp = c.nvptx_fp,
        .libdevice_path = c.libdevice,
        .verbose = c.verbose,
        .err = err,
        .err_size = sizeof err,
    };
#if SKMD_HAVE_ANALYSIS
    struct skmd_program_record rec;
    skmd_record_init(&rec);
    opts.record = &rec;
#endif
    LLVMContextRef llvm = LLVMContextCreate();
    int rc = 1;
    LLVMModuleRef m = NULL;
    if (c.compile) {
        rc = compile_into_cache(llvm, &c, &opts) ? 1 : 0;
        goto out;
    }
    m = load_input(llvm, &c, err, sizeof err);
    mark("frontend");
    if (!m || transform(m, &c, &opts, c.analyze || c.merge))
        goto out;
    if (c.analyze) {
#if SKMD_HAVE_ANALYSIS
        rc = write_record(&rec, c.output, 1) ? 1 : 0;
#endif
        goto out;
    }
    rc = write_output(m, &c, c.output, &opts) ? 1 : 0;
    mark("write");
out:
    if (rc && err[0])
        fprintf(stderr, "skmd-opt: %s\n", err);
    if (m)
        LLVMDisposeModule(m);
    LLVMContextDispose(llvm);
#if SKMD_HAVE_ANALYSIS
    skmd_record_free(&rec);
#endif
    mark("exit");
    print_timings();
    return rc;
}
