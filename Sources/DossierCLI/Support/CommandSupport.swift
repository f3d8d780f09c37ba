import ArgumentParser
import DossierCore
import DossierRecords
import Foundation

/// What several commands share.
enum CommandSupport {
    static func sayWaiting(_ holder: String) {
        StandardStreams.writeError("dossier: the library is in use (\(SourcePath.displayed(holder))); waiting for it...\n")
    }

    /// Runs a command body, printing library and data errors as one line (a line feed in a name
    /// they hold escaped) and mapping them to exit codes: 2 when the library itself could not be
    /// used, 1 for anything else it refused.
    static func withLibraryError(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as LibraryError {
            StandardStreams.writeError("dossier: \(SourcePath.displayed("\(error)"))\n")
            throw ExitCode(2)
        } catch let error as ExitCode {
            throw error
        } catch let error as ValidationError {
            throw error
        } catch {
            StandardStreams.writeError("dossier: \(SourcePath.displayed("\(error)"))\n")
            throw ExitCode(1)
        }
    }

    /// Says each profile that could not be read, on standard error, and exits 1 when there was
    /// one: the other subjects were listed.
    static func sayUnreadable(_ errors: [ProfileError]) throws {
        guard !errors.isEmpty else { return }
        for error in errors { StandardStreams.writeError("dossier: \(SourcePath.displayed("\(error)"))\n") }
        throw ExitCode(1)
    }

    /// A subject argument that must exist in the library.
    static func existingSubject(_ reference: String, in layout: LibraryLayout) throws -> Subject {
        try requireLibrary(layout)
        let subject: Subject
        do { subject = try Subject(parsing: reference) } catch { throw ValidationError("\(error)") }
        guard layout.existingSubjects().contains(subject) else {
            throw ValidationError("\(ProfileError.notFound(subject.path))" + didYouMean(subject, in: layout))
        }
        return subject
    }

    /// ` (did you mean pets/leo?)`, or nothing when no subject's id is close.
    static func didYouMean(_ subject: Subject, in layout: LibraryLayout) -> String {
        let closest = ClosestNames.closest(to: subject.path, among: layout.existingSubjects().map(\.path))
        return closest.isEmpty ? "" : " (did you mean \(closest.joined(separator: " or "))?)"
    }

    /// A date option, in any form a log's date takes (`2024-03-02`, `2024.3.2`, `2024년 3월 2일`,
    /// `3/2/2024` month first, `2 March 2024`), with its year, in the years a record can have.
    static func day(_ text: String, option: String) throws -> RecordDate {
        guard let date = RecordDate(iso8601: text) ?? writtenDay(text), !date.hasTime else {
            throw ValidationError("\(option): '\(text)' is not a day: write it with its year, as a log would "
                + "(2024-03-02, 2024년 3월 2일, 3/2/2024 month first).")
        }
        try checkYear(of: date, option: option)
        return date
    }

    /// The day a log line starting with `text` would be filed on; nil when the line would not be
    /// dated, or its year would be a guess.
    private static func writtenDay(_ text: String) -> RecordDate? {
        var parser = NotepadParser(directory: SubjectDirectory(entries: []), fileSubject: nil,
                                   options: NotepadOptions(fallbackYear: 2000))
        var day: RecordDate?
        var guessed = false
        parser.parse(TextLine(number: 1, text: "\(text) memo", terminator: "\n")) { (event: consuming NotepadEvent) in
            switch event {
            case .entry(let entry): day = RecordDate(year: entry.date.year, month: entry.date.month, day: entry.date.day)
            case .problem: guessed = true
            }
        }
        return guessed ? nil : day
    }

    /// `812 KB`, `1.4 GB`: decimal units, as `df -H` and file managers show them.
    static func bytes(_ count: Int64) -> String {
        let units = ["bytes", "KB", "MB", "GB", "TB"]
        var value = Double(count)
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return unit == 0 ? "\(count) bytes" : String(format: value < 10 ? "%.1f %@" : "%.0f %@", value, units[unit])
    }

    static func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

extension CommandSupport {
    /// The quarantined sources with these ids; an unknown id is refused, naming the ones there are.
    static func quarantined(_ ids: [String], in quarantine: Quarantine) throws -> [QuarantineEntry] {
        let entries = try quarantine.entries()
        return try ids.map { id in
            guard let entry = entries.first(where: { $0.id == id || SourcePath.displayed($0.id) == id }) else {
                let known = entries.prefix(5).map { SourcePath.displayed($0.id) }.joined(separator: ", ")
                throw ValidationError("no quarantined source \(SourcePath.displayed(id))"
                    + (known.isEmpty ? " (the quarantine is empty)" : " (there are: \(known))"))
            }
            return entry
        }
    }
}
