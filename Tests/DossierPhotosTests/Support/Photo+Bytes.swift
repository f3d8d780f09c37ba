import DossierCore

extension Photo {
    /// The photo's bytes, read from its scratch file when it is a large one: what tests compare.
    var bytes: [UInt8] {
        switch content {
        case .memory(let bytes): bytes
        case .file(let file): try! file.read(at: 0, count: Int(file.size))
        }
    }
}
