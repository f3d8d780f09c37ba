import Glibc

extension SourcePath {
    /// When the file at `path` was made (`statx`'s birth time, in nanoseconds since 1970), read
    /// only if it is still the file `identity` names (its device and inode); nil where the kernel,
    /// the C library or the file system keeps no birth time. Without following a last link
    /// unless `followingLink`. Glibc's module does not carry `statx`: it is found by name, and its
    /// buffer read at the offsets of Linux's `struct statx`, the same on every architecture.
    public static func birthTime(of path: String, identity: FileIdentity, followingLink: Bool = false) -> Int64? {
        guard let statx = Statx.function else { return nil }
        var buffer = [UInt8](repeating: 0, count: 256)
        let result = withFileSystemPath(path) { name in
            buffer.withUnsafeMutableBytes { statx(AT_FDCWD, name, followingLink ? 0 : AT_SYMLINK_NOFOLLOW, Statx.birthTime, $0.baseAddress!) }
        }
        guard result == 0 else { return nil }
        func load<T: FixedWidthInteger>(_ offset: Int, _: T.Type) -> T {
            buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: T.self) }
        }
        let (major, minor) = (UInt64(load(136, UInt32.self)), UInt64(load(140, UInt32.self)))
        // glibc's makedev.
        let device = (major & 0xFFFF_F000) << 32 | (major & 0xFFF) << 8 | (minor & 0xFFFF_FF00) << 12 | (minor & 0xFF)
        guard load(0, UInt32.self) & Statx.birthTime != 0,
              FileIdentity(device: device, inode: load(32, UInt64.self)) == identity else { return nil }
        return SourceFile.nanoseconds(of: timespec(tv_sec: Int(load(80, Int64.self)), tv_nsec: Int(load(88, UInt32.self))))
    }

    private enum Statx {
        typealias Function = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UInt32, UnsafeMutableRawPointer) -> Int32
        static let birthTime: UInt32 = 0x800
        static let function: Function? = {
            guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "statx") else { return nil }
            return unsafeBitCast(symbol, to: Function.self)
        }()
    }
}
