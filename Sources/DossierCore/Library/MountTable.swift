import Foundation

/// The mounts this process sees (`/proc/self/mountinfo`): which folder of which file system is
/// mounted where. A folder's place in its file system (the file system's device, and its path from
/// that file system's root) is the same whatever mount it is seen through, so a bind mount of a
/// library's `pets` folder, or one disk mounted twice (Docker's `-v /srv/x:/inbox -v
/// /srv/x/Library:/library`), cannot hide that one folder lies inside another: device and inode
/// of the folders above a path only see the mount it was named through.
public struct MountTable: Sendable {
    public struct Mount: Sendable, Equatable {
        /// The file system's device, `major:minor` as the kernel gives it.
        public let device: String
        /// The folder of that file system that is mounted here (`/` for the whole of it).
        public let root: String
        /// Where it is mounted.
        public let point: String
    }

    /// A folder's place: the file system and the path within it.
    public struct Place: Sendable, Equatable {
        public let device: String
        public let path: String

        /// Whether this place is `other` or lies inside it.
        public func isWithin(_ other: Place) -> Bool {
            device == other.device && (path == other.path || other.path == "/" || path.hasPrefix(other.path + "/"))
        }
    }

    /// In the order the kernel lists them: a later mount at the same point covers an earlier one.
    public let mounts: [Mount]

    public init(mounts: [Mount]) {
        self.mounts = mounts
    }

    /// The mounts as they are now; none where the kernel does not say (then only device and inode
    /// of the folders above a path are compared, as before mounts were read).
    public static func current() -> MountTable {
        guard let text = try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8) else {
            return MountTable(mounts: [])
        }
        return MountTable(mounts: text.split(separator: "\n").compactMap { mount(fromLine: $0) })
    }

    /// `36 35 98:0 /mnt1 /mnt/parent rw,noatime master:1 - ext3 /dev/root rw`: the third field is
    /// the device, the fourth the root, the fifth the mount point.
    static func mount(fromLine line: Substring) -> Mount? {
        let fields = line.split(separator: " ", omittingEmptySubsequences: false)
        guard fields.count >= 5 else { return nil }
        return Mount(device: String(fields[2]), root: unescaped(fields[3]), point: unescaped(fields[4]))
    }

    /// The kernel writes a space, tab, newline and backslash in a path as `\040`, `\011`, `\012`, `\134`.
    static func unescaped(_ field: Substring) -> String {
        let bytes = Array(field.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\\"), index + 3 < bytes.count,
               let value = UInt8(String(decoding: bytes[(index + 1)...(index + 3)], as: UTF8.self), radix: 8) {
                out.append(value)
                index += 4
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return SourcePath.string(fromFileSystem: out)
    }

    /// The mount a real path (no links in it) is reached through: the one at the longest point
    /// that holds it, the last listed where several share that point.
    public func mount(holding path: String) -> Mount? {
        var best: Mount?
        for mount in mounts where mount.point == "/" || path == mount.point || path.hasPrefix(mount.point + "/") {
            if mount.point.count >= (best?.point.count ?? -1) { best = mount }
        }
        return best
    }

    /// Where a real path lies in its file system.
    public func place(ofRealPath path: String) -> Place? {
        guard let mount = mount(holding: path) else { return nil }
        let rest = mount.point == "/" ? path : String(path.dropFirst(mount.point.count))
        let joined = mount.root == "/" ? rest : mount.root + rest
        return Place(device: mount.device, path: joined.isEmpty ? "/" : joined)
    }

    /// Every path through which a place can be reached (one for each mount of its file system
    /// whose root holds it).
    public func paths(of place: Place) -> [String] {
        mounts.compactMap { mount in
            guard mount.device == place.device,
                  mount.root == "/" || place.path == mount.root || place.path.hasPrefix(mount.root + "/") else { return nil }
            let rest = mount.root == "/" ? place.path : String(place.path.dropFirst(mount.root.count))
            if mount.point == "/" { return rest.isEmpty ? "/" : rest }
            return rest == "/" ? mount.point : mount.point + rest
        }
    }

    /// Whether a real path is where something is mounted.
    public func isMountPoint(_ path: String) -> Bool {
        mounts.contains { $0.point == path }
    }
}
