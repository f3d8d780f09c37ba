#define _GNU_SOURCE
#include "dossier_common.h"
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void dossier_buffer_free(dossier_buffer *buffer) {
    if (buffer == NULL) return;
    free(buffer->data);
    buffer->data = NULL;
    buffer->size = 0;
}

void dossier_status_reset(dossier_status *status) {
    if (status == NULL) return;
    memset(status, 0, sizeof(*status));
}

void dossier_status_fail(dossier_status *status, int code, const char *format, ...) {
    if (status == NULL || status->code != DOSSIER_OK) return;
    status->code = code;
    va_list args;
    va_start(args, format);
    vsnprintf(status->message, sizeof(status->message), format, args);
    va_end(args);
}

void dossier_status_warn(dossier_status *status, const char *message) {
    if (status == NULL) return;
    if (status->warning_count == 0) {
        snprintf(status->warning, sizeof(status->warning), "%s", message);
    }
    status->warning_count += 1;
}

int dossier_growable_append(dossier_growable *buffer, const void *bytes, size_t count) {
    if (buffer->failed) return 0;
    if (count > SIZE_MAX - buffer->size) { buffer->failed = 1; return 0; }
    size_t needed = buffer->size + count;
    if (needed > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity : 65536;
        while (capacity < needed) {
            if (capacity > SIZE_MAX / 2) { capacity = needed; break; }
            capacity *= 2;
        }
        uint8_t *grown = realloc(buffer->data, capacity);
        if (grown == NULL) { buffer->failed = 1; return 0; }
        buffer->data = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->data + buffer->size, bytes, count);
    buffer->size = needed;
    return 1;
}

void dossier_growable_finish(dossier_growable *buffer, dossier_buffer *out) {
    out->data = buffer->data;
    out->size = buffer->size;
    buffer->data = NULL;
    buffer->size = buffer->capacity = 0;
}

void dossier_growable_free(dossier_growable *buffer) {
    free(buffer->data);
    buffer->data = NULL;
    buffer->size = buffer->capacity = 0;
}

// ---------------------------------------------------------------------------------
// Scratch files and plain file I/O
// ---------------------------------------------------------------------------------

/// An unlinked file in `folder`: O_TMPFILE where the file system has it, else a fresh name
/// removed right after it is created.
static int open_unlinked(int folder) {
    int fd = openat(folder, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)) return fd;
    static _Atomic unsigned counter;
    for (int attempt = 0; attempt < 100; attempt++) {
        char name[64];
        snprintf(name, sizeof name, ".scratch-%ld-%u", (long)getpid(), counter++);
        fd = openat(folder, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd >= 0) {
            unlinkat(folder, name, 0);
            return fd;
        }
        if (errno != EEXIST) return -1;
    }
    return -1;
}

/// Bytes of zeros written at a time where the file system cannot reserve space.
#define ZERO_CHUNK ((size_t)1 << 20)

/// Reserves the first `size` bytes of the empty file open as `fd` by writing zeros over them;
/// returns 0 or the errno of the write that failed (ENOSPC on a full disk).
static int write_zeros(int fd, size_t size) {
    uint8_t *zeros = calloc(1, ZERO_CHUNK);
    if (zeros == NULL) return ENOMEM;
    int failure = 0;
    for (size_t done = 0; done < size && failure == 0;) {
        size_t count = size - done < ZERO_CHUNK ? size - done : ZERO_CHUNK;
        ssize_t put = pwrite(fd, zeros, count, (off_t)done);
        if (put < 0 && errno == EINTR) continue;
        if (put < 0) {
            failure = errno;
        } else if (put == 0) {
            // A regular file never takes nothing without saying why; not looping forever.
            failure = EIO;
        } else {
            done += (size_t)put;
        }
    }
    free(zeros);
    return failure;
}

/// Gives the empty file open as `fd` `size` bytes whose blocks are its own. A write through a
/// shared mapping that needs a block the disk no longer has cannot fail: the kernel kills the
/// process with SIGBUS. posix_fallocate reserves the blocks where the file system can. Where it
/// cannot, POSIX has posix_fallocate say EINVAL and Linux's fallocate says EOPNOTSUPP (older SMB/CIFS
/// shares, NFS before 4.2, FUSE file systems without it: where people keep libraries). glibc does not
/// pass EOPNOTSUPP on: it writes a zero byte into every 4 KiB block itself; musl (the static
/// Linux SDK's C library) does. Either answer here means nothing is reserved yet, so the zeros
/// are written out, every write checked: a full disk fails this photo with ENOSPC, never the
/// process with SIGBUS.
static int reserve(int fd, size_t size) {
    int reserved = posix_fallocate(fd, 0, (off_t)size);
    if (reserved == EOPNOTSUPP || reserved == EINVAL) reserved = write_zeros(fd, size);
    return reserved;
}

int dossier_scratch_open(dossier_scratch *scratch, int folder, size_t size, dossier_status *status) {
    memset(scratch, 0, sizeof *scratch);
    scratch->fd = -1;
    // mmap refuses an empty mapping; a page costs nothing.
    size_t mapped = size > 0 ? size : 1;
    scratch->fd = open_unlinked(folder);
    if (scratch->fd < 0) {
        dossier_status_fail(status, DOSSIER_ERR_ENCODE, "cannot create a scratch file: %s", strerror(errno));
        return 0;
    }
    int reserved = reserve(scratch->fd, mapped);
    if (reserved != 0) {
        dossier_status_fail(status, DOSSIER_ERR_ENCODE, "cannot make a scratch file of %zu bytes: %s", mapped,
                            strerror(reserved));
        dossier_scratch_close(scratch);
        return 0;
    }
    void *base = mmap(NULL, mapped, PROT_READ | PROT_WRITE, MAP_SHARED, scratch->fd, 0);
    if (base == MAP_FAILED) {
        dossier_status_fail(status, DOSSIER_ERR_ENCODE, "cannot map a scratch file of %zu bytes: %s", mapped,
                            strerror(errno));
        dossier_scratch_close(scratch);
        return 0;
    }
    // No fault-around or read-ahead: a fault brings in the page asked for and no more. The
    // codecs walk these files in patterns of their own (down the columns of a picture, for one),
    // where the neighbours a fault would map are not used before the mapping lets them go, yet
    // would count against the process's resident memory.
    madvise(base, mapped, MADV_RANDOM);
    scratch->base = base;
    scratch->size = mapped;
    return 1;
}

void dossier_scratch_touch(dossier_scratch *scratch, size_t bytes) {
    scratch->touched += bytes;
    if (scratch->touched >= DOSSIER_SCRATCH_RESIDENT) dossier_scratch_let_go(scratch);
}

void dossier_scratch_let_go(dossier_scratch *scratch) {
    // Shared file pages: dirty ones stay in the page cache, so nothing is lost.
    madvise(scratch->base, scratch->size, MADV_DONTNEED);
    scratch->touched = 0;
}

void dossier_scratch_close(dossier_scratch *scratch) {
    if (scratch->base != NULL) munmap(scratch->base, scratch->size);
    if (scratch->fd >= 0) close(scratch->fd);
    scratch->base = NULL;
    scratch->fd = -1;
    scratch->size = scratch->touched = 0;
}

ssize_t dossier_pread_fully(int fd, void *buffer, size_t count, uint64_t offset) {
    size_t done = 0;
    while (done < count) {
        ssize_t got = pread(fd, (uint8_t *)buffer + done, count - done, (off_t)(offset + done));
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) return -1;
        if (got == 0) break;
        done += (size_t)got;
    }
    return (ssize_t)done;
}

int dossier_write_fully(int fd, const void *buffer, size_t count) {
    size_t done = 0;
    while (done < count) {
        ssize_t put = write(fd, (const uint8_t *)buffer + done, count - done);
        if (put < 0 && errno == EINTR) continue;
        if (put < 0) return -1;
        done += (size_t)put;
    }
    return 0;
}
