/// Counts glibc's malloc heaps (one for each arena but the main one) in a `/proc/PID/maps` text.
///
/// glibc maps each such heap as 64 MiB (HEAP_MAX_SIZE on 64-bit) aligned on 64 MiB: the part in
/// use read-write, the rest of it reserved with no access. Nothing else in the daemon maps memory
/// that way (thread stacks are 8 MiB with a guard page below).
enum MallocArenaHeaps {
    static let heapSize: UInt64 = 64 << 20

    static func count(inMaps maps: String) -> Int {
        let anonymous = maps.split(separator: "\n").compactMap { line -> (start: UInt64, end: UInt64, access: Substring)? in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            // An anonymous mapping has no path: address, access, offset, device, inode 0.
            guard fields.count == 5, fields[4] == "0" else { return nil }
            let bounds = fields[0].split(separator: "-")
            guard bounds.count == 2, let start = UInt64(bounds[0], radix: 16), let end = UInt64(bounds[1], radix: 16) else { return nil }
            return (start, end, fields[1])
        }
        var heaps = 0
        for (index, mapping) in anonymous.enumerated()
        where mapping.start % heapSize == 0 && mapping.access == "rw-p" && mapping.end - mapping.start <= heapSize {
            // The rest of the 64 MiB, reserved right after it.
            let next = anonymous.indices.contains(index + 1) ? anonymous[index + 1] : nil
            if mapping.end == mapping.start + heapSize
                || (next?.start == mapping.end && next?.end == mapping.start + heapSize && next?.access == "---p") {
                heaps += 1
            }
        }
        return heaps
    }
}
