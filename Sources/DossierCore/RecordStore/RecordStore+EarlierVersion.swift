import Foundation

extension RecordStore {
    /// What taking out an earlier version's records did to one year file.
    public struct Removal: Sendable, Equatable {
        public var removed = 0
        /// The year file's new state, for the index; nil when nothing was removed.
        public var summary: RecordFileSummary?
    }

    /// Takes out of a year file the records an earlier version of a source gave (those whose
    /// `source` names `sourcePath` and the kept copy `kept`) unless the new version gave them
    /// too (`keeping`): an edited log's corrected line replaces the old one instead of standing
    /// beside it. The file is rewritten whole in staging and renamed over the old one.
    public func removeRecords(ofSource sourcePath: String, kept: String, keeping: Set<UInt64>,
                              fromYearFile relativePath: String, subject: Subject, year: Int) throws -> Removal {
        let target = try layout.url(forRelativePath: relativePath).path
        guard layout.files.isFile(target) else { return Removal() }
        let marker = Array(#""kept":"\#(kept)""#.utf8)
        let decoder = JSONDecoder()
        let reader = try ByteLineReader(path: target, in: layout.files)
        let staged = layout.stagingFolder.appendingPathComponent("\(UUID().uuidString).jsonl").path
        let writer = try StagingFileWriter(path: staged, in: layout.files)
        var removal = Removal()
        var count = 0
        do {
            while let line = reader.next() {
                // Only a line that names the kept copy can be one of its records: the others are
                // copied without being parsed.
                if RecordStore.contains(marker, in: line), let key = RecordLine.key(of: line), !keeping.contains(key.id),
                   let record = try? decoder.decode(Record.self, from: Data(line)),
                   record.source.path == sourcePath, record.source.kept == kept {
                    removal.removed += 1
                    continue
                }
                try writer.writeLine(line)
                count += 1
            }
            guard removal.removed > 0 else {
                writer.abandon()
                return removal
            }
            let digest = try writer.finish()
            try layout.files.rename(staged, replacing: target)
            removal.summary = RecordFileSummary(path: relativePath, subject: subject.path, year: year, count: count,
                                                sha256: digest.hex)
            return removal
        } catch {
            writer.abandon()
            throw error
        }
    }

    static func contains(_ needle: [UInt8], in line: ArraySlice<UInt8>) -> Bool {
        guard let first = needle.first, line.count >= needle.count else { return false }
        var index = line.startIndex
        let last = line.endIndex - needle.count
        while index <= last {
            if line[index] == first && line[index..<index + needle.count].elementsEqual(needle) { return true }
            index += 1
        }
        return false
    }
}
