import Foundation

extension RecordStore {
    /// What taking out an earlier version's records did to one year file.
    public struct Removal: Sendable, Equatable {
        public var removed = 0
        /// Records another source with the same bytes still gives, now named as its.
        public var handedOn = 0
        /// The year file's new state, for the index; nil when nothing changed.
        public var summary: RecordFileSummary?
        /// The first `RecordStore.listedRemovals` records taken out, each as a person reads it:
        /// its date, kind and text (`2024-03-02 weight: Rex weight 410 g`).
        public var records: [String] = []
    }

    /// How many records taken out a source's outcome names; the count says how many more.
    public static let listedRemovals = 20

    /// Takes out of a year file the records that earlier versions of a source gave (those whose
    /// `source` names `sourcePath` and one of the versions' kept copies, the keys of `versions`)
    /// unless the new version gave them too (`keeping`): an edited log's corrected line replaces
    /// the old one instead of standing beside it. A record that another source still gives (the
    /// value for its version: a file elsewhere with the very same bytes, routed alike) is not
    /// taken out but handed on to it, so records filed from two copies stay until both are gone.
    /// The file is rewritten whole in staging and renamed over the old one.
    public func removeRecords(ofSource sourcePath: String, versions: [String: String?], keeping: Set<UInt64>,
                              fromYearFile relativePath: String, subject: Subject, year: Int) throws -> Removal {
        let target = try layout.url(forRelativePath: relativePath).path
        guard layout.files.isFile(target), !versions.isEmpty else { return Removal() }
        let markers = versions.keys.sorted().map { Array(#""kept":"\#($0)""#.utf8) }
        let decoder = JSONDecoder()
        let reader = try ByteLineReader(path: target, in: layout.files)
        let staged = layout.stagingFolder.appendingPathComponent("\(UUID().uuidString).jsonl").path
        let writer = try StagingFileWriter(path: staged, in: layout.files)
        var removal = Removal()
        var count = 0
        do {
            while let line = reader.next() {
                // Only a line that names one of the kept copies can be one of their records: the
                // others are copied without being parsed.
                if markers.contains(where: { RecordStore.contains($0, in: line) }), let key = RecordLine.key(of: line),
                   !keeping.contains(key.id), let record = try? decoder.decode(Record.self, from: Data(line)),
                   record.source.path == sourcePath, let kept = record.source.kept, let heir = versions[kept] {
                    guard let heir else {
                        removal.removed += 1
                        if removal.records.count < RecordStore.listedRemovals {
                            removal.records.append("\(record.date) \(record.kind): \(record.text)")
                        }
                        continue
                    }
                    try writer.writeLine(RecordLine.encode(record.handedOn(to: heir)).dropLast())
                    removal.handedOn += 1
                    count += 1
                    continue
                }
                try writer.writeLine(line)
                count += 1
            }
            guard removal.removed + removal.handedOn > 0 else {
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

private extension Record {
    /// The same record, as given by the source at `path` (whose bytes, and so its line numbers,
    /// are those of the kept copy the record names).
    func handedOn(to path: String) -> Record {
        Record(subject: subject, date: date, kind: kind, measurements: measurements, text: text, fields: fields,
               source: RecordSource(path: path, line: source.line, kept: source.kept))
    }
}
