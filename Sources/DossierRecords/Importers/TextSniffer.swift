import DossierCore

/// Tells text from binary by a file's first bytes. Text in an encoding Dossier cannot read still
/// counts as text: the importer then refuses it with the reason, instead of it being skipped as
/// an unknown file.
enum TextSniffer {
    static func isText(_ head: [UInt8]) -> Bool {
        guard !head.isEmpty, FileTypeDescription.binaryFormat(head: head) == nil else { return false }
        if head.starts(with: [0xFF, 0xFE]) || head.starts(with: [0xFE, 0xFF]) { return true }
        // NUL and control bytes other than tab, LF, form feed and CR mean binary.
        return !head.contains { $0 < 0x20 && ![0x09, 0x0A, 0x0C, 0x0D].contains($0) }
    }
}
