import Foundation

/// An open file read where a container reader asks, a box at a time: a movie's index is found
/// without reading its gigabytes of pictures.
struct DescriptorBytes: RandomAccessBytes {
    let descriptor: Int32
    let byteCount: Int64

    func read(at offset: Int64, length: Int) throws(ContainerError) -> [UInt8] {
        guard offset >= 0, length >= 0, offset + Int64(length) <= byteCount else { throw ContainerError.truncated(at: offset) }
        var bytes = [UInt8](repeating: 0, count: length)
        var done = 0
        while done < length {
            let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, length - done, off_t(offset) + off_t(done)) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                if count < 0 { throw ContainerError.unreadable(String(cString: strerror(errno))) }
                throw ContainerError.truncated(at: offset + Int64(done))
            }
            done += count
        }
        return bytes
    }
}
