import DossierTestSupport
import Foundation
import Glibc
import Testing

/// What another process does to a source while Dossier works on it, made to happen at one exact
/// moment: a shared object preloaded into the binary (`LD_PRELOAD`) that acts when the binary
/// opens or closes the source, so a race the tests must win is the same on every run.
///
/// - `DOSSIER_TEST_SWAP_PATH`, `DOSSIER_TEST_SWAP_WITH`, `DOSSIER_TEST_SWAP_AT` (default 1): just
///   before the binary's Nth `open` of the path, the file `SWAP_WITH` (a link, say) is renamed over it.
/// - `DOSSIER_TEST_EDIT_PATH`, `DOSSIER_TEST_EDIT_OFFSET`, `DOSSIER_TEST_EDIT_BYTES`: each time the
///   binary closes a descriptor it opened on the path, the byte at the offset is changed to the
///   next of the bytes (round and round), in place, and the file's times are put back as they were
///   before the first change: the same size and the same modification time, a new change time.
/// - `DOSSIER_TEST_WHOLE_SECONDS`: every file's times, as the binary's `stat`, `lstat`, `fstat` and
///   `fstatat` give them, are whole seconds, as a file system of whole-second times (ext4 made
///   with 128-byte inodes, ext3, HFS+) keeps them: an edit later in the same second leaves the
///   same change time (`wholeSeconds`, `withinOneSecond`).
enum SourceTampering {
    static func library(in folder: TemporaryFolder) throws -> String {
        let source = try folder.write("""
            #define _GNU_SOURCE
            #include <dlfcn.h>
            #include <fcntl.h>
            #include <pthread.h>
            #include <stdarg.h>
            #include <stdio.h>
            #include <stdlib.h>
            #include <string.h>
            #include <sys/stat.h>
            #include <unistd.h>

            static pthread_mutex_t guard = PTHREAD_MUTEX_INITIALIZER;
            static int opens = 0, edits = 0, tracked[256], trackedCount = 0, haveTimes = 0;
            static struct timespec times[2];

            static int real_openat(int folder, const char *path, int flags, mode_t mode) {
                static int (*next)(int, const char *, int, ...) = NULL;
                if (next == NULL) next = dlsym(RTLD_NEXT, "openat");
                return next(folder, path, flags, mode);
            }

            static int real_close(int descriptor) {
                static int (*next)(int) = NULL;
                if (next == NULL) next = dlsym(RTLD_NEXT, "close");
                return next(descriptor);
            }

            static int same(const char *path, const char *variable) {
                const char *wanted = getenv(variable);
                return wanted != NULL && path != NULL && strcmp(path, wanted) == 0;
            }

            static int opened(int folder, const char *path, int flags, mode_t mode) {
                if (same(path, "DOSSIER_TEST_SWAP_PATH")) {
                    pthread_mutex_lock(&guard);
                    int count = ++opens;
                    pthread_mutex_unlock(&guard);
                    const char *at = getenv("DOSSIER_TEST_SWAP_AT");
                    if (count == (at != NULL ? atoi(at) : 1)) rename(getenv("DOSSIER_TEST_SWAP_WITH"), path);
                }
                int descriptor = real_openat(folder, path, flags, mode);
                if (descriptor >= 0 && same(path, "DOSSIER_TEST_EDIT_PATH")) {
                    pthread_mutex_lock(&guard);
                    if (trackedCount < 256) tracked[trackedCount++] = descriptor;
                    pthread_mutex_unlock(&guard);
                }
                return descriptor;
            }

            static void edit(void) {
                const char *path = getenv("DOSSIER_TEST_EDIT_PATH");
                const char *bytes = getenv("DOSSIER_TEST_EDIT_BYTES");
                const char *offset = getenv("DOSSIER_TEST_EDIT_OFFSET");
                if (path == NULL || bytes == NULL || offset == NULL || bytes[0] == 0) return;
                int descriptor = real_openat(AT_FDCWD, path, O_WRONLY | O_CLOEXEC, 0);
                if (descriptor < 0) return;
                struct stat info;
                fstat(descriptor, &info);
                pthread_mutex_lock(&guard);
                if (!haveTimes) { times[0] = info.st_atim; times[1] = info.st_mtim; haveTimes = 1; }
                char byte = bytes[edits++ % strlen(bytes)];
                pthread_mutex_unlock(&guard);
                if (pwrite(descriptor, &byte, 1, atoll(offset)) == 1) futimens(descriptor, times);
                real_close(descriptor);
            }

            static int wholeSeconds(void) {
                static int answer = -1;
                if (answer < 0) answer = getenv("DOSSIER_TEST_WHOLE_SECONDS") != NULL;
                return answer;
            }

            #define WHOLE_SECONDS(info) if (result == 0 && wholeSeconds()) { \\
                (info)->st_atim.tv_nsec = 0; (info)->st_mtim.tv_nsec = 0; (info)->st_ctim.tv_nsec = 0; }
            #define NEXT(name) static __typeof__(name) *next = NULL; if (next == NULL) next = (__typeof__(name) *)dlsym(RTLD_NEXT, #name);

            int stat(const char *path, struct stat *info) {
                NEXT(stat); int result = next(path, info); WHOLE_SECONDS(info); return result;
            }
            int lstat(const char *path, struct stat *info) {
                NEXT(lstat); int result = next(path, info); WHOLE_SECONDS(info); return result;
            }
            int fstat(int descriptor, struct stat *info) {
                NEXT(fstat); int result = next(descriptor, info); WHOLE_SECONDS(info); return result;
            }
            int fstatat(int folder, const char *path, struct stat *info, int flags) {
                NEXT(fstatat);
                int result = next(folder, path, info, flags); WHOLE_SECONDS(info); return result;
            }
            int stat64(const char *path, struct stat64 *info) {
                NEXT(stat64); int result = next(path, info); WHOLE_SECONDS(info); return result;
            }
            int lstat64(const char *path, struct stat64 *info) {
                NEXT(lstat64); int result = next(path, info); WHOLE_SECONDS(info); return result;
            }
            int fstat64(int descriptor, struct stat64 *info) {
                NEXT(fstat64); int result = next(descriptor, info); WHOLE_SECONDS(info); return result;
            }
            int fstatat64(int folder, const char *path, struct stat64 *info, int flags) {
                NEXT(fstatat64);
                int result = next(folder, path, info, flags); WHOLE_SECONDS(info); return result;
            }

            #define MODE(flags) mode_t mode = 0; \\
                if ((flags) & O_CREAT) { va_list list; va_start(list, flags); mode = va_arg(list, int); va_end(list); }

            int open(const char *path, int flags, ...) { MODE(flags); return opened(AT_FDCWD, path, flags, mode); }
            int open64(const char *path, int flags, ...) { MODE(flags); return opened(AT_FDCWD, path, flags, mode); }
            int openat(int folder, const char *path, int flags, ...) { MODE(flags); return opened(folder, path, flags, mode); }
            int openat64(int folder, const char *path, int flags, ...) { MODE(flags); return opened(folder, path, flags, mode); }

            int close(int descriptor) {
                int wasTracked = 0;
                pthread_mutex_lock(&guard);
                for (int index = 0; index < trackedCount; index++) {
                    if (tracked[index] == descriptor) { tracked[index] = tracked[--trackedCount]; wasTracked = 1; break; }
                }
                pthread_mutex_unlock(&guard);
                int result = real_close(descriptor);
                if (wasTracked) edit();
                return result;
            }

            """, to: "preload/tampering.c")
        let clang = try #require(ScratchAndSizeSafetyTests.toolchainClang(), "no clang beside swift on PATH")
        let library = folder.path("preload/tampering.so")
        let build = Process()
        build.executableURL = URL(fileURLWithPath: clang)
        build.arguments = ["-shared", "-fPIC", "-O1", "-o", library, source, "-ldl", "-lpthread"]
        try build.run()
        build.waitUntilExit()
        try #require(build.terminationStatus == 0, "clang could not build the tampering library")
        return library
    }

    /// The environment that has the binary see every file's times in whole seconds (`preload` from
    /// `library(in:)`), with `more` of the variables above.
    static func wholeSeconds(_ preload: String, _ more: [String: String] = [:]) -> [String: String] {
        more.merging(["LD_PRELOAD": preload, "DOSSIER_TEST_WHOLE_SECONDS": "1"]) { $1 }
    }

    /// Runs `body` on a folder made by `prepare`, from the top of a second, and again on a folder
    /// prepared anew (at most five times in all) until it ended within that same second: then
    /// every change time it left shows, in whole seconds, as the second of the one before it, as
    /// a file system of whole seconds keeps them. (On a busy machine that never comes, the last
    /// run stands: what the test expects holds all the same, it only proves less.)
    static func withinOneSecond<T>(prepare: () throws -> TemporaryFolder,
                                   _ body: (TemporaryFolder) throws -> T) throws -> (folder: TemporaryFolder, result: T) {
        for attempt in 1...5 {
            let folder = try prepare()
            // To the top of the next second, as a file system's own clock counts them.
            let start = Date().timeIntervalSince1970
            Thread.sleep(forTimeInterval: 1.02 - start.truncatingRemainder(dividingBy: 1))
            let second = Int(Date().timeIntervalSince1970)
            let result = try body(folder)
            if Int(Date().timeIntervalSince1970) == second || attempt == 5 { return (folder, result) }
        }
        preconditionFailure("unreachable")
    }

    /// Changes the bytes at `offset` of the file in place, keeping its size, and puts its access
    /// and modification times back exactly (`touch -r`, `exiftool -P`): only its change time shows it.
    static func editInPlace(_ path: String, at offset: Int, to bytes: [UInt8]) throws {
        var before = stat()
        try #require(stat(path, &before) == 0)
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        try #require(pwrite(descriptor, bytes, bytes.count, off_t(offset)) == bytes.count)
        var times = [before.st_atim, before.st_mtim]
        try #require(futimens(descriptor, &times) == 0)
        var after = stat()
        try #require(fstat(descriptor, &after) == 0)
        try #require(after.st_size == before.st_size && after.st_mtim.tv_sec == before.st_mtim.tv_sec
                     && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec)
    }

    /// Where `needle` first stands in `bytes`.
    static func offset(of needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard needle.count <= bytes.count else { return nil }
        return (0...(bytes.count - needle.count)).first { bytes[$0..<$0 + needle.count].elementsEqual(needle) }
    }
}
