import ArgumentParser
import DossierCore
import DossierRecords
import Foundation

/// What several commands share.
enum CommandSupport {
    static func sayWaiting(_ holder: String) {
        StandardStreams.writeError("dossier: the library is in use (\(holder)); waiting for it...\n")
    }

    /// Runs a command body, printing library and data errors as one line and mapping them to exit
    /// codes: 2 when the library itself could not be used, 1 for anything else it refused.
    static func withLibraryError(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as LibraryError {
            StandardStreams.writeError("dossier: \(error)\n")
            throw ExitCode(2)
        } catch let error as ExitCode {
            throw error
        } catch let error as ValidationError {
            throw error
        } catch {
            StandardStreams.writeError("dossier: \(error)\n")
            throw ExitCode(1)
        }
    }

    /// A subject argument that must exist in the library.
    static func existingSubject(_ reference: String, in layout: LibraryLayout) throws -> Subject {
        let subject: Subject
        do { subject = try Subject(parsing: reference) } catch { throw ValidationError("\(error)") }
        guard layout.existingSubjects().contains(subject) else { throw ValidationError("\(ProfileError.notFound(subject.path))") }
        return subject
    }

    /// A date option: YYYY-MM-DD.
    static func day(_ text: String, option: String) throws -> RecordDate {
        guard let date = RecordDate(iso8601: text), !date.hasTime else {
            throw ValidationError("\(option): '\(text)' is not a date: use YYYY-MM-DD.")
        }
        return date
    }

    static func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
