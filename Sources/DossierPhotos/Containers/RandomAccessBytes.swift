import DossierCore
import Glibc

/// Bytes that can be read at any offset: a file in memory, or a file on disk read with `pread`,
/// so a container's boxes are found without reading a whole video.
protocol RandomAccessBytes {
    var byteCount: Int64 { get }
    /// Exactly `length` bytes from `offset`; throws when they are not all there.
    func read(at offset: Int64, length: Int) throws(ContainerError) -> [UInt8]
}

extension Array: RandomAccessBytes where Element == UInt8 {
    var byteCount: Int64 { Int64(count) }

    func read(at offset: Int64, length: Int) throws(ContainerError) -> [UInt8] {
        guard offset >= 0, length >= 0, offset + Int64(length) <= byteCount else {
            throw ContainerError.truncated(at: offset)
        }
        return Array(self[Int(offset)..<Int(offset) + length])
    }
}

extension ScratchFile: RandomAccessBytes {
    var byteCount: Int64 { size }

    func read(at offset: Int64, length: Int) throws(ContainerError) -> [UInt8] {
        guard offset >= 0, length >= 0, offset + Int64(length) <= size else { throw ContainerError.truncated(at: offset) }
        do {
            let bytes = try read(at: offset, count: length)
            guard bytes.count == length else { throw ContainerError.truncated(at: offset + Int64(bytes.count)) }
            return bytes
        } catch let error as ContainerError {
            throw error
        } catch {
            throw ContainerError.unreadable("\(error)")
        }
    }
}

extension PhotoContent {
    /// The photo's bytes, wherever they are, for a container reader.
    var randomAccess: any RandomAccessBytes {
        switch self {
        case .memory(let bytes): bytes
        case .file(let file): file
        }
    }
}
