import Glibc

/// How the daemon's memory is kept from creeping up over months of batches.
///
/// glibc's malloc keeps up to eight arenas a core, one more each time a new thread meets a busy
/// one, each holding on to the pages its threads touched; and since it raises its mmap threshold
/// as large blocks are freed, a photo's big buffers come from those arenas. A one-shot import ends
/// before it matters; a daemon whose source threads come and go for months would keep the
/// high-water mark of every arena it ever made (measured: peak RSS 123 MiB after 1,100 files,
/// 162 MiB a hundred files later, as new arenas came into use). So the arenas are two, and after
/// each batch what is free is given back to the kernel. (Fixing the mmap threshold at 1 MiB
/// instead, so big buffers are unmapped when freed, made a burst of 1,100 files a third slower:
/// every buffer's pages were faulted in and zeroed anew.)
enum DaemonMemory {
    /// glibc's mallopt parameters (malloc.h).
    private static let arenaMax: Int32 = -8

    static func configure() {
        guard let mallopt = function("mallopt", as: (@convention(c) (Int32, Int32) -> Int32).self) else { return }
        _ = mallopt(arenaMax, 2)
    }

    /// Returns freed memory to the kernel (after a batch: a few milliseconds, while idle follows).
    static func giveBack() {
        _ = function("malloc_trim", as: (@convention(c) (Int) -> Int32).self)?(0)
    }

    /// A glibc function Swift's Glibc module does not declare (malloc.h is not in it), looked up
    /// in the process's own symbols.
    private static func function<F>(_ name: String, as type: F.Type) -> F? {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), name) else { return nil }
        return unsafeBitCast(symbol, to: type)
    }
}
