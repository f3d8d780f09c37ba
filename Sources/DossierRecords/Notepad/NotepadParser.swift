import DossierCore

/// Turns a notepad log into dated entries and problems, one line at a time, so a log of any
/// length is read in the memory of one line.
///
/// A line may carry a date (many forms, see `NotepadLineScanner`), a weekday, a time and a
/// subject's name before its text. A date or name with nothing after it is a header: the lines
/// under it take its date, or its subject. A line without a date takes the date of its section,
/// or the date and subject of the entry before it (a continuation of that entry). A date without a year takes the year
/// of the date before it, or the next year when it would fall more than a month before that date.
public struct NotepadParser {
    private let names: NotepadNameResolver
    private let options: NotepadOptions
    /// The day of the last dated line: where a date without a year takes its year from.
    private var lastDay: RecordDate?
    /// The date a dateless line belongs to: its section header's date (with the header's time,
    /// if written), or the previous entry's day.
    private var context: RecordDate?
    /// Whether `context` came from the entry before (a dateless line then continues that entry,
    /// subject and all) rather than from a section header.
    private var contextFromEntry = false
    /// The subject of the entry before, for the lines that continue it.
    private var lastEntrySubject: Subject?
    private var heading = NotepadHeading.none
    /// The last impossible date (`2023-02-30`, alone on its line or before an entry): the dateless
    /// lines below it belong to no day that exists, so they are reported, not filed under the day before.
    private var impossibleHeading: (date: String, line: Int)?

    public init(directory: SubjectDirectory, fileSubject: Subject?, options: NotepadOptions) {
        names = NotepadNameResolver(directory: directory, nonNames: options.nonNames, fileSubject: fileSubject)
        self.options = options
    }

    /// Hands over the events of one line: nothing for a blank line or a header, else an entry or
    /// a problem, preceded by a problem when the entry's year was a guess. Handed one by one, as
    /// the handler's own (a log of a million lines makes no array per line, nor copies of its
    /// entries).
    public mutating func parse<Failure: Error>(
        _ line: TextLine, _ handle: (consuming NotepadEvent) throws(Failure) -> Void
    ) throws(Failure) {
        if let bytes = line.overlongByteCount {
            try handle(.problem(NotepadProblem(line: line.number, reason: LineReader.overlongReason(bytes: bytes))))
            return
        }
        var text = line.text
        text.makeContiguousUTF8()
        let names = self.names
        let monthFirst = options.monthFirst
        let result = text.utf8.withContiguousStorageIfAvailable { bytes in
            let scanner = NotepadLineScanner(bytes: bytes, monthFirst: monthFirst, names: names)
            let scanned = scanner.scan()
            let whole = scanned.content.count == bytes.count
            return read(scanned, number: line.number, scanner: scanner, text: whole ? line.text : nil)
        }
        guard let (problems, entry) = result else { return }
        for problem in problems { try handle(.problem(problem)) }
        if let entry { try handle(.entry(entry)) }
    }

    /// Nothing is held back today: every line's events come out of `parse`. Callers still call
    /// this at the end of a file, so a parser that looks ahead can be swapped in without them.
    public mutating func finish<Failure: Error>(_ handle: (consuming NotepadEvent) throws(Failure) -> Void) throws(Failure) {}

    /// The problems and the entry of a scanned line. Problems are rare: the array stays empty,
    /// which costs no allocation.
    private mutating func read(_ scanned: NotepadScannedLine, number: Int, scanner: NotepadLineScanner,
                               text: String?) -> (problems: [NotepadProblem], entry: NotepadEntry?) {
        var problems: [NotepadProblem] = []
        guard !scanned.content.isEmpty else { return (problems, nil) }
        func report(_ reason: String) { problems.append(NotepadProblem(line: number, reason: reason)) }

        var dated: RecordDate?
        if let written = scanned.date, written.impossible {
            let date = scanner.string(written.text)
            let swapped = RecordDate(year: written.year ?? 2000, month: written.day, day: written.month) != nil
            report("impossible date '\(date)': no such day" + (written.orderFromOptions && swapped
                ? options.monthFirst ? " (read month first; a log written day first needs {\"monthFirst\": false} in config/records.json)"
                                     : " (read day first, as config/records.json says)"
                : ""))
            // The lines under it must not fall to the day before it.
            context = nil
            contextFromEntry = false
            impossibleHeading = (date, number)
            return (problems, nil)
        }
        if let written = scanned.date {
            impossibleHeading = nil
            guard let day = resolve(written, scanner: scanner, report: report) else { return (problems, nil) }
            lastDay = day
            dated = timed(day, scanned)
        }
        var subject: Subject?
        var nameProblem: String?
        if let mark = scanned.name {
            switch mark.lookup {
            case .subject(let named): subject = named
            case .ambiguous(let subjects):
                nameProblem = "name '\(mark.spelled)' belongs to more than one subject ("
                    + subjects.map(\.path).joined(separator: ", ") + ")"
            case .unknown, .notAName: nameProblem = unknownName(mark.spelled)
            }
        }

        if scanned.body.isEmpty {
            if let dated {
                context = dated
                contextFromEntry = false
            } else if scanned.hour != nil, let context {
                self.context = timed(context.dayOnly, scanned)
            }
            if let mark = scanned.name {
                heading = subject.map(NotepadHeading.subject)
                    ?? .unresolved(name: mark.spelled, line: number, shared: mark.lookup != .unknown)
            }
            if let nameProblem { report(nameProblem) }
            return (problems, nil)
        }

        if let dated {
            context = dated.dayOnly
            contextFromEntry = true
        }
        if let nameProblem {
            report(nameProblem)
            return (problems, nil)
        }
        guard let date = dated ?? context.map({ scanned.hour == nil ? $0 : timed($0.dayOnly, scanned) }) else {
            if let impossibleHeading {
                report("under the impossible date '\(impossibleHeading.date)' of line \(impossibleHeading.line)")
                return (problems, nil)
            }
            report(NotepadProblem.undatedReason)
            return (problems, nil)
        }
        if subject == nil {
            switch heading {
            case .subject(let headed): subject = headed
            case .unresolved(let name, let line, let shared):
                report("under the \(shared ? "shared" : "unknown") name '\(name)' of line \(line)")
                return (problems, nil)
            case .none:
                // A dateless line under an entry goes on with that entry's day and subject.
                if dated == nil && contextFromEntry { subject = lastEntrySubject }
            }
        }
        lastEntrySubject = subject
        // The body lies within the text (the line's content): a substring of it, not a string of
        // its own. Offsets into a native string's UTF-8 are found without walking it.
        let text = text ?? scanner.string(scanned.content)
        let utf8 = text.utf8
        let bodyStart = utf8.index(utf8.startIndex, offsetBy: scanned.body.lowerBound - scanned.content.lowerBound)
        let body = Substring(utf8[bodyStart..<utf8.index(bodyStart, offsetBy: scanned.body.count)])
        return (problems, NotepadEntry(line: number, date: date, subject: subject, body: body, text: text))
    }

    /// The written date with its year: as written, else from the last dated line, else the
    /// fallback year.
    private mutating func resolve(_ written: NotepadWrittenDate, scanner: NotepadLineScanner,
                                  report: (String) -> Void) -> RecordDate? {
        if let year = written.year { return RecordDate(year: year, month: written.month, day: written.day) }
        if let lastDay {
            if let day = NotepadParser.following(month: written.month, day: written.day, after: lastDay) { return day }
            report("'\(scanner.string(written.text))' is not a day in \(lastDay.year) or \(lastDay.year + 1)")
            return nil
        }
        let year = options.fallbackYear
        guard let day = RecordDate(year: year, month: written.month, day: written.day) else {
            report("'\(scanner.string(written.text))' is not a day in \(year)")
            return nil
        }
        // Reported once: the next date without a year takes its year from this one.
        report("no year before '\(scanner.string(written.text))'; took \(year), the year the file was last changed")
        return day
    }

    /// The day in `last`'s year, unless it falls more than a month before `last`: then the next
    /// year. So 12/30 then 1/2 moves into the next year, as does a molt noted each spring a little
    /// earlier; but a feeding written late (5/3, then 4/28) stays in its year rather than pushing
    /// it and every date after it a year on, as a bare "the month went back" rule would.
    private static func following(month: Int, day: Int, after last: RecordDate) -> RecordDate? {
        if let same = RecordDate(year: last.year, month: month, day: day), dayNumber(same) >= dayNumber(last) - 31 {
            return same
        }
        return RecordDate(year: last.year + 1, month: month, day: day)
    }

    /// Days since 0000-03-01 in the proleptic Gregorian calendar (years here are 1900...2200).
    private static func dayNumber(_ date: RecordDate) -> Int {
        let year = date.month <= 2 ? date.year - 1 : date.year
        let era = year / 400
        let yearOfEra = year - era * 400
        let dayOfYear = (153 * ((date.month + 9) % 12) + 2) / 5 + date.day - 1
        return era * 146_097 + yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    }

    private func timed(_ day: RecordDate, _ scanned: NotepadScannedLine) -> RecordDate {
        guard let hour = scanned.hour, let minute = scanned.minute else { return day }
        // The scanner only passes hours 0...23 and minutes 0...59, which every day has.
        return RecordDate(year: day.year, month: day.month, day: day.day, hour: hour, minute: minute)!
    }

    private func unknownName(_ name: String) -> String {
        let close = names.directory.suggestions(for: name)
        guard !close.isEmpty else { return "unknown name '\(name)'" }
        // Joined like the CSV importer's unknown names, so a keeper sees one style.
        return "unknown name '\(name)' (did you mean \(close.joined(separator: " or "))?)"
    }
}
