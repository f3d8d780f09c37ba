import DossierCore

extension PhotoContent {
    /// Calls `body` with the bytes in memory (their address and count, and no path), or with the
    /// scratch file's path (and no bytes): the two ways the C shims take a picture.
    func withCInput(_ body: (UnsafePointer<UInt8>?, Int, UnsafePointer<CChar>?) -> Int32) -> Int32 {
        switch self {
        case .memory(let bytes):
            return bytes.withUnsafeBufferPointer { body($0.baseAddress, $0.count, nil) }
        case .file(let file):
            return file.path.withCString { body(nil, 0, $0) }
        }
    }
}
