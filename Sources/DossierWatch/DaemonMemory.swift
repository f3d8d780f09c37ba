import Glibc

/// How the daemon's memory is kept from creeping up over months of batches.
///
/// glibc's malloc gives each new thread an arena of its own, up to eight a core, and since it
/// raises its mmap threshold as large blocks are freed, a photo's big buffers come from those
/// arenas. `malloc_trim` gives back the free blocks inside every arena, but the free space at the
/// top of an arena other than the main one only goes back when a free leaves more of it than the
/// trim threshold, which has risen with the mmap threshold: so each arena keeps the high-water
/// mark of the photos turned on it. A daemon whose source threads come and go for months brings
/// more arenas into use, and its peak grows with them. So the arenas are two, set before the
/// process has a second thread (see `DossierCommand.prepareProcess`): the one arena that keeps
/// its top keeps at most one heap's worth, and after each batch the rest of what is free goes
/// back to the kernel. One arena idles lower but peaks higher (the two workers' buffers fragment
/// one heap) and files a burst slower. (Fixing the mmap threshold instead, so big buffers are
/// unmapped when freed, makes a burst slower still: every buffer's pages are faulted in and
/// zeroed anew.) The figures: docs/performance.md, "DaemonMemory".
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
