/* enospc_shim: an LD_PRELOAD library that makes the disk look full for some files only:
 * every write, pwrite, writev, ftruncate or fallocate on a file whose path contains
 * $ENOSPC_SHIM_MATCH fails with ENOSPC, as on a full file system. Other files (the
 * driver's kernel cache, the app's output) are written as usual, which neither a tiny
 * file system nor RLIMIT_FSIZE allows without also failing the driver. Test use only. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

/* True when fd is a file the disk is "full" for. */
static int full_for(int fd)
{
    const char *match = getenv("ENOSPC_SHIM_MATCH");
    if (!match || !*match)
        return 0;
    char link[64], path[PATH_MAX];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, path, sizeof path - 1);
    if (n <= 0)
        return 0;
    path[n] = '\0';
    return strstr(path, match) != NULL;
}

#define NEXT(name) ((__typeof__(&name))dlsym(RTLD_NEXT, #name))
#define FULL_OR_CALL(fd, name, ...)                                                        \
    do {                                                                                   \
        if (full_for(fd)) {                                                                \
            errno = ENOSPC;                                                                \
            return -1;                                                                     \
        }                                                                                  \
        return NEXT(name)(__VA_ARGS__);                                                    \
    } while (0)

ssize_t write(int fd, const void *buf, size_t count)
{
    FULL_OR_CALL(fd, write, fd, buf, count);
}
ssize_t pwrite(int fd, const void *buf, size_t count, off_t off)
{
    FULL_OR_CALL(fd, pwrite, fd, buf, count, off);
}
ssize_t pwrite64(int fd, const void *buf, size_t count, off64_t off)
{
    FULL_OR_CALL(fd, pwrite64, fd, buf, count, off);
}
ssize_t writev(int fd, const struct iovec *iov, int n)
{
    FULL_OR_CALL(fd, writev, fd, iov, n);
}
int ftruncate(int fd, off_t len)
{
    FULL_OR_CALL(fd, ftruncate, fd, len);
}
int ftruncate64(int fd, off64_t len)
{
    FULL_OR_CALL(fd, ftruncate64, fd, len);
}
int fallocate(int fd, int mode, off_t off, off_t len)
{
    FULL_OR_CALL(fd, fallocate, fd, mode, off, len);
}
int posix_fallocate(int fd, off_t off, off_t len)
{
    if (full_for(fd))
        return ENOSPC;
    return NEXT(posix_fallocate)(fd, off, len);
}
