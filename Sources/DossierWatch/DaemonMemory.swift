import Glibc

/// How the daemon's memory is kept from creeping up over months of batches.
///
/// glibc's malloc gives each new thread an arena of its own, up to eight a core, and since it
/// raises its mmap threshold as large blocks are freed, a photo's big buffers come from those
/// arenas. `malloc_trim` gives back the free blocks inside every arena, but the free space at the
/// top of an arena other than the main one only goes back when a free leaves more of it than the
/// trim threshold, which has risen with the mmap threshold: so each arena keeps the high-water
/// mark of the photos turned on it. A daemon whose source threads come and go for months brings
/// more arenas into use, and its peak grew with them (measured: 137.8 MiB after 1,101 files,
/// 160.9 MiB after 2,101; five arenas after one burst of 1,100 files, two of them keeping 42 MB
/// each while idle). So the arenas are two, set before the process has a second thread (see
/// `DossierCommand.prepareProcess`): the one arena that keeps its top keeps at most one heap's
/// worth (64 MiB), and after each batch the rest of what is free goes back to the kernel.
/// Measured over the same burst, interleaved: two arenas peak at 126-131 MiB and idle at 84 MiB;
/// one arena idles at 42 MiB but peaks at 150-152 MiB (the two workers' buffers fragment one
/// heap) with the burst 5-10% slower. (Fixing the mmap threshold at 1 MiB instead, so big
/// buffers are unmapped when freed, made a burst a third slower: every buffer's pages were
/// faulted in and zeroed anew; at 4 MiB, 18% slower.)
public enum DaemonMemory {
    /// glibc's mallopt parameters (malloc.h).
    private static let arenaMax: Int32 = -8

    /// Limits the arenas to two. Only takes effect before a second thread has allocated.
    public static func configure() {
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
