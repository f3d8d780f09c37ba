import DossierCore

/// Finds the parts of one notepad line (date, weekday, time, name, body) by walking its UTF-8
/// bytes. A million-line log must not pay for regular expressions, formatters or Strings per
/// line: only a word that may be a name becomes a String.
///
/// The scanner is strict where a wrong guess would misfile: a date or time is only looked for at
/// the start of the line (after a bullet, a heading mark or a name), every date is checked to
/// exist, and a number followed by letters (45g, 75cm) or standing alone (2 pinkies) is never one.
///
/// Positions are byte offsets into the line. `stop` is always on a scalar boundary and the line
/// is valid UTF-8, so a lead byte before `stop` has all its continuation bytes before `stop`.
struct NotepadLineScanner {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let start: Int
    private let stop: Int
    private let monthFirst: Bool
    private let names: NotepadNameResolver

    init(bytes: UnsafeBufferPointer<UInt8>, monthFirst: Bool, names: NotepadNameResolver) {
        self.bytes = bytes
        self.monthFirst = monthFirst
        self.names = names
        var start = 0
        var stop = bytes.count
        while start < stop {
            let length = NotepadLineScanner.spaceLength(bytes, at: start, stop: stop)
            guard length > 0 else { break }
            start += length
        }
        while stop > start {
            let length = NotepadLineScanner.trailingSpaceLength(bytes, before: stop)
            guard length > 0 else { break }
            stop -= length
        }
        self.start = start
        self.stop = stop
    }

    func scan() -> NotepadScannedLine {
        var line = NotepadScannedLine(content: start..<stop, body: stop..<stop)
        guard start < stop else { return line }
        let (afterMarks, headingMark) = skipMarks(start)
        if isMonthHeading(from: afterMarks, headingMark: headingMark) { return line }
        var position = afterMarks
        var consumed = false
        // Date first, so that a pet called May cannot take "May 3" from the calendar.
        var group = scanDateGroup(at: position)
        if group == nil, let name = scanName(at: position) {
            line.name = name.mark
            position = skipSpaces(name.end)
            consumed = true
            group = scanDateGroup(at: position)
        }
        if let group {
            line.date = group.date
            (line.hour, line.minute) = (group.hour, group.minute)
            position = group.end
            consumed = true
        } else if let time = scanTime(at: position) {
            (line.hour, line.minute) = (time.hour, time.minute)
            position = time.end
            consumed = true
        }
        if line.name == nil, consumed, let name = scanName(at: skipSeparators(position)) {
            line.name = name.mark
            position = name.end
        }
        // A name line the directory does not know, in a file of one subject (`はなこ (0歳3か月4日)`
        // with `--subject`): still the export's header for the child, not an entry.
        if line.name == nil, !consumed, let ageStart = ageBracketStart(), ageStart > position, startsWithLetter(position) {
            return line
        }
        if consumed { position = skipSeparators(position) }
        position = skipBullet(position)
        line.body = body(from: position, headingMark: headingMark)
        return line
    }

    // MARK: Line shape

    /// Skips a heading mark (`#`, `==`) and a bullet; returns the mark so its closing twin
    /// (`== 2024-03-02 ==`) can be dropped from the end.
    private func skipMarks(_ position: Int) -> (Int, UInt8?) {
        var position = position
        var mark: UInt8?
        let first = bytes[position]
        if first == UInt8(ascii: "#") || first == UInt8(ascii: "=") {
            var end = position
            while end < stop && bytes[end] == first { end += 1 }
            if end == stop || isSpace(end) || (first == UInt8(ascii: "=") && end - position >= 2) {
                mark = first
                position = skipSpaces(end)
            }
        }
        return (skipBullet(position), mark)
    }

    /// `-` and `*` only count followed by a space, so "-5도" and "*note*" keep theirs.
    private func skipBullet(_ position: Int) -> Int {
        guard position < stop else { return position }
        let first = bytes[position]
        if first == UInt8(ascii: "-") || first == UInt8(ascii: "*") {
            return position + 1 == stop || isSpace(position + 1) ? skipSpaces(position + 1) : position
        }
        if first == 0xE2 && bytes[position + 1] == 0x80 && bytes[position + 2] == 0xA2 { return skipSpaces(position + 3) }  // •
        if first == 0xC2 && bytes[position + 1] == 0xB7 { return skipSpaces(position + 2) }  // ·
        return position
    }

    /// What stands between a date or name and the body: `2024-03-02: fed`, `레오 - 탈피`, `May 3, fed`.
    private func skipSeparators(_ position: Int) -> Int {
        var position = skipSpaces(position)
        while position < stop {
            let first = bytes[position]
            var length = 0
            var needsSpaceAfter = false
            switch first {
            case UInt8(ascii: ":"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "|"):
                length = 1
            case UInt8(ascii: "."), UInt8(ascii: "-"):
                (length, needsSpaceAfter) = (1, true)
            case UInt8(ascii: "="), UInt8(ascii: "#"):
                while position + length < stop && bytes[position + length] == first { length += 1 }
                needsSpaceAfter = true
            default:
                if isFullWidthColon(position) {
                    length = 3
                } else if let dash = longDashLength(at: position) {
                    (length, needsSpaceAfter) = (dash, true)
                }
            }
            guard length > 0, !needsSpaceAfter || position + length == stop || isSpace(position + length) else { break }
            position = skipSpaces(position + length)
        }
        return position
    }

    /// The rest of the line, without a closing heading mark; empty when only decoration is left
    /// (`==`, `---`, `:`), which makes the line a header.
    private func body(from position: Int, headingMark: UInt8?) -> Range<Int> {
        var end = stop
        if let headingMark {
            var trimmed = end
            while trimmed > position && bytes[trimmed - 1] == headingMark { trimmed -= 1 }
            if trimmed < end {
                while trimmed > position, NotepadLineScanner.trailingSpaceLength(bytes, before: trimmed) > 0 {
                    trimmed -= NotepadLineScanner.trailingSpaceLength(bytes, before: trimmed)
                }
                end = trimmed
            }
        }
        var index = position
        while index < end {
            switch bytes[index] {
            case UInt8(ascii: "="), UInt8(ascii: "#"), UInt8(ascii: "-"), UInt8(ascii: "*"), UInt8(ascii: "~"),
                 UInt8(ascii: ":"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "|"), UInt8(ascii: ","),
                 UInt8(ascii: " "), UInt8(ascii: "\t"):
                index += 1
            default:
                return position..<end
            }
        }
        return end..<end
    }

    /// A month alone on its line (`2024年1月`, `2024년 1월`), maybe after a title in brackets
    /// (`【ぴよログ】2024年1月`, PiyoLog's first line): it heads days that carry their own dates, so
    /// it is a header that sets nothing, and a title is no name to report.
    private func isMonthHeading(from position: Int, headingMark: UInt8?) -> Bool {
        guard position < stop else { return false }
        var index = position
        var title: Range<Int>?
        if let open = bracketLength(at: index, closing: false) {
            var close = index + open
            while close < stop, bracketLength(at: close, closing: true) == nil { close += 1 }
            guard close < stop, let closeLength = bracketLength(at: close, closing: true) else { return false }
            title = trimmed(index + open..<close)
            index = skipSpaces(close + closeLength)
        }
        guard let year = readNumber(at: index, maxDigits: 4), year.digits == 4 else { return false }
        index = skipSpaces(year.end)
        guard isYearMark(at: index), let month = readNumber(at: skipSpaces(index + 3), maxDigits: 2),
              (1...12).contains(month.value) else { return false }
        index = skipSpaces(month.end)
        guard isMonthMark(at: index), body(from: index + 3, headingMark: headingMark).isEmpty else { return false }
        // `[레오] 2024년 5월` names a subject: that line is read as a name header.
        if let title, !title.isEmpty {
            switch names.resolve(string(title), singleWord: false) {
            case .subject, .ambiguous: return false
            case .unknown, .notAName: break
            }
        }
        return true
    }

    // MARK: Dates

    typealias DateGroup = (date: NotepadWrittenDate, hour: Int?, minute: Int?, end: Int)

    /// A date with its weekday and time, bare or in brackets: `[2024-03-02 14:30]`.
    private func scanDateGroup(at position: Int) -> DateGroup? {
        guard position < stop else { return nil }
        guard bytes[position] == UInt8(ascii: "[") else { return scanDateAndExtras(at: position) }
        guard let inner = scanDateAndExtras(at: skipSpaces(position + 1)) else { return nil }
        let close = skipSpaces(inner.end)
        guard close < stop, bytes[close] == UInt8(ascii: "]") else { return nil }
        return (inner.date, inner.hour, inner.minute, close + 1)
    }

    private func scanDateAndExtras(at position: Int) -> DateGroup? {
        guard let (date, dateEnd) = scanDate(at: position) else { return nil }
        var end = dateEnd
        if let weekdayEnd = scanWeekday(after: end) { end = weekdayEnd }
        if end == dateEnd, end < stop, bytes[end] == UInt8(ascii: "T"), let clock = scanClock(at: end + 1),
           isTimeBoundary(clock.end), clock.hour < 24, clock.minute < 60 {
            return (date, clock.hour, clock.minute, clock.end)
        }
        if let time = scanTime(at: skipSpaces(end)) { return (date, time.hour, time.minute, time.end) }
        return (date, nil, nil, end)
    }

    private func scanDate(at position: Int) -> (NotepadWrittenDate, Int)? {
        guard position < stop else { return nil }
        let first = bytes[position]
        if isDigit(first) { return scanNumericDate(at: position) }
        if isLetter(first) { return scanWordDate(at: position) }
        return nil
    }

    /// `2023-05-01`, `2023.05.01`, `2023. 5. 1.`, `2023/5/1`, `23.05.01`, `05/07/2024`, `5/3`,
    /// `2023년 5월 1일`, `5월 1일`, `2024年1月5日`, `1月5日`, `3 May 2024`.
    private func scanNumericDate(at position: Int) -> (NotepadWrittenDate, Int)? {
        guard let first = readNumber(at: position, maxDigits: 4), first.digits != 3 else { return nil }
        if let marked = scanMarkedDate(startingWith: first, at: position) { return marked }
        let separator = first.end < stop ? bytes[first.end] : 0
        guard separator == UInt8(ascii: "-") || separator == UInt8(ascii: ".") || separator == UInt8(ascii: "/") else {
            return scanDayMonthName(startingWith: first, at: position)
        }
        guard let second = readNumber(at: afterDateSeparator(first.end, separator), maxDigits: 2) else { return nil }
        var end = second.end
        var third: Number?
        if end < stop && bytes[end] == separator {
            guard let number = readNumber(at: afterDateSeparator(end, separator), maxDigits: 4) else { return nil }
            third = number
            end = number.end
        }
        let year: Int?, month: Int, day: Int
        if let third {
            if first.digits == 4 {
                guard third.digits <= 2 else { return nil }
                (year, month, day) = (first.value, second.value, third.value)
            } else if third.digits == 4 {
                (month, day) = monthFirst ? (first.value, second.value) : (second.value, first.value)
                year = third.value
            } else if separator == UInt8(ascii: "/") {
                // 5/7/24: the order app exports and US habits use, so day and month follow the option.
                guard third.digits == 2 else { return nil }
                (month, day) = monthFirst ? (first.value, second.value) : (second.value, first.value)
                year = 2000 + third.value
            } else {
                // 23.05.10: the Korean short form, year first.
                guard first.digits == 2, third.digits <= 2 else { return nil }
                (year, month, day) = (2000 + first.value, second.value, third.value)
            }
            if separator == UInt8(ascii: "."), end < stop, bytes[end] == UInt8(ascii: ".") { end += 1 }
        } else {
            // Two numbers only with a slash: "0.6 oz" and "1-2 pinkies" are no dates.
            guard separator == UInt8(ascii: "/"), first.digits <= 2 else { return nil }
            (month, day) = monthFirst ? (first.value, second.value) : (second.value, first.value)
            year = nil
        }
        guard isDateBoundary(end) else { return nil }
        // A year, or a slash between two numbers, makes the shape of a date: such a line was
        // meant to be dated even when the day does not exist.
        guard let exists = exists(year: year, month: month, day: day, shapeCertain: third != nil) else { return nil }
        let ordered = third == nil || (first.digits != 4 && (third?.digits == 4 || separator == UInt8(ascii: "/")))
        return (NotepadWrittenDate(year: year, month: month, day: day, text: position..<end, impossible: !exists,
                                   orderFromOptions: ordered), end)
    }

    /// Korean writes "2023. 5. 1." with a space after each dot.
    private func afterDateSeparator(_ position: Int, _ separator: UInt8) -> Int {
        let next = position + 1
        if separator == UInt8(ascii: "."), next + 1 < stop, bytes[next] == UInt8(ascii: " "), isDigit(bytes[next + 1]) {
            return next + 1
        }
        return next
    }

    /// A date whose parts are marked: Korean `2023년 5월 1일`, Japanese and Chinese `2024年1月5日`.
    private func scanMarkedDate(startingWith first: Number, at position: Int) -> (NotepadWrittenDate, Int)? {
        var index = skipSpaces(first.end)
        var year: Int?
        let month: Number
        if isYearMark(at: index) {
            guard first.digits == 4 || first.digits == 2 else { return nil }
            year = first.digits == 2 ? 2000 + first.value : first.value
            guard let number = readNumber(at: skipSpaces(index + 3), maxDigits: 2) else { return nil }
            month = number
            index = skipSpaces(number.end)
            guard isMonthMark(at: index) else { return nil }
        } else if isMonthMark(at: index), first.digits <= 2 {
            month = first
        } else {
            return nil
        }
        guard let day = readNumber(at: skipSpaces(index + 3), maxDigits: 2) else { return nil }
        index = skipSpaces(day.end)
        // 월 and 일 (月 and 日) say it is a date whatever the numbers.
        guard isDayMark(at: index),
              let exists = exists(year: year, month: month.value, day: day.value, shapeCertain: true) else { return nil }
        let end = index + 3
        return (NotepadWrittenDate(year: year, month: month.value, day: day.value, text: position..<end,
                                   impossible: !exists), end)
    }

    // 년, 월, 일 and 年, 月, 日 are all three bytes long in UTF-8.
    private func isYearMark(at position: Int) -> Bool {
        let value = scalar(at: position)
        return value == NotepadWords.year || value == NotepadWords.japaneseYear
    }

    private func isMonthMark(at position: Int) -> Bool {
        let value = scalar(at: position)
        return value == NotepadWords.month || value == NotepadWords.japaneseMonth
    }

    private func isDayMark(at position: Int) -> Bool {
        let value = scalar(at: position)
        return value == NotepadWords.day || value == NotepadWords.japaneseDay
    }

    /// `3 May 2024`, `3rd May`, `3 May`.
    private func scanDayMonthName(startingWith day: Number, at position: Int) -> (NotepadWrittenDate, Int)? {
        guard day.digits <= 2 else { return nil }
        let afterDay = skipOrdinal(day.end)
        let wordStart = skipSpaces(afterDay)
        guard wordStart > afterDay, let word = readLetters(at: wordStart),
              let month = NotepadWords.months[word.packed] else { return nil }
        var end = word.end
        if end < stop && bytes[end] == UInt8(ascii: ".") { end += 1 }
        let year = scanTrailingYear(after: end)
        if let year { end = year.end }
        guard isDateBoundary(end),
              let exists = exists(year: year?.value, month: month, day: day.value, shapeCertain: false) else { return nil }
        return (NotepadWrittenDate(year: year?.value, month: month, day: day.value, text: position..<end,
                                   impossible: !exists), end)
    }

    /// `May 3, 2024`, `May 3rd`, `Sept. 3`, and the same after a weekday: `Sun, May 3, 2024`.
    private func scanWordDate(at position: Int) -> (NotepadWrittenDate, Int)? {
        guard let word = readLetters(at: position) else { return nil }
        var end = word.end
        if end < stop && bytes[end] == UInt8(ascii: ".") { end += 1 }
        if let month = NotepadWords.months[word.packed] {
            let dayStart = skipSpaces(end)
            guard dayStart > end, let day = readNumber(at: dayStart, maxDigits: 2) else { return nil }
            end = skipOrdinal(day.end)
            let year = scanTrailingYear(after: end)
            if let year { end = year.end }
            guard isDateBoundary(end),
                  let exists = exists(year: year?.value, month: month, day: day.value, shapeCertain: false) else { return nil }
            return (NotepadWrittenDate(year: year?.value, month: month, day: day.value, text: position..<end,
                                       impossible: !exists), end)
        }
        guard NotepadWords.weekdays[word.packed] != nil else { return nil }
        let dateStart = skipSpaces(skipComma(end))
        guard dateStart > word.end, let (date, dateEnd) = scanDate(at: dateStart) else { return nil }
        return (date, dateEnd)
    }

    /// `, 2024` or ` 2024` after a day and month, as four digits only: "May 3 24" could be 24 of something.
    private func scanTrailingYear(after position: Int) -> Number? {
        let yearStart = skipSpaces(skipComma(position))
        guard yearStart > position, let year = readNumber(at: yearStart, maxDigits: 4), year.digits == 4,
              isDateBoundary(year.end) else { return nil }
        return year
    }

    private func skipComma(_ position: Int) -> Int {
        position < stop && bytes[position] == UInt8(ascii: ",") ? position + 1 : position
    }

    private func skipOrdinal(_ position: Int) -> Int {
        guard position + 1 < stop, isLetter(bytes[position]), isLetter(bytes[position + 1]),
              position + 2 == stop || !isLetter(bytes[position + 2]),
              NotepadWords.ordinalSuffixes.contains(NotepadWords.pack(bytes[position..<position + 2]))
        else { return position }
        return position + 2
    }

    /// A date ends where no digit, ASCII letter or date separator goes on: "5/3x", "2023-05-011"
    /// and "5/3/" are no dates. Hangul may follow (5월 3일에), and `T` before an ISO time.
    private func isDateBoundary(_ position: Int) -> Bool {
        guard position < stop else { return true }
        let next = bytes[position]
        if next == UInt8(ascii: "T") { return position + 1 < stop && isDigit(bytes[position + 1]) }
        if isDigit(next) || isLetter(next) || next == UInt8(ascii: "/") { return false }
        if next == UInt8(ascii: ".") || next == UInt8(ascii: ":") || next == UInt8(ascii: ",") || next == UInt8(ascii: "-") {
            return !(position + 1 < stop && isDigit(bytes[position + 1]))
        }
        return true
    }

    /// Whether the day exists: nil when the numbers are no date at all, false when they were
    /// written as one but no such day is (30 February, 31 April, a year outside
    /// `RecordDate.plausibleYears`). A missing year allows 29 February, settled once the year is
    /// known. Where the shape alone is no proof (`5/40 crickets`, `May 45`), only numbers of
    /// 1...31 make a date, impossible or not (`13/1` in a month-first log is one, and reported).
    private func exists(year: Int?, month: Int, day: Int, shapeCertain: Bool) -> Bool? {
        guard shapeCertain || ((1...31).contains(month) && (1...31).contains(day)) else { return nil }
        if let year, !RecordDate.plausibleYears.contains(year) { return false }
        guard (1...12).contains(month), (1...31).contains(day) else { return false }
        switch month {
        case 2:
            guard let year else { return day <= 29 }
            return day <= ((year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28)
        case 4, 6, 9, 11: return day <= 30
        default: return true
        }
    }

    // MARK: Weekdays and times

    /// `(일)`, `(일요일)`, `(金)`, `(金曜日)`, `(Sun)`, `(sunday)`, and bare `일요일`, `金曜日`, `Sun`,
    /// `Sunday`. A bare English weekday must be capitalised ("sun basking" is no Sunday), and a bare
    /// Korean or Japanese one needs 요일 or 曜日 (일 alone is also "day", "one" and "work"; 日 "day").
    private func scanWeekday(after position: Int) -> Int? {
        var index = skipSpaces(position)
        guard index < stop else { return nil }
        let openLength = bytes[index] == UInt8(ascii: "(") ? 1 : isFullWidth(index, 0x88) ? 3 : 0
        if openLength > 0 {
            guard let wordEnd = weekdayWord(at: skipSpaces(index + openLength), bare: false) else { return nil }
            let close = skipSpaces(wordEnd)
            if close < stop && bytes[close] == UInt8(ascii: ")") { return close + 1 }
            return isFullWidth(close, 0x89) ? close + 3 : nil
        }
        if bytes[index] == UInt8(ascii: ",") { index = skipSpaces(index + 1) }
        guard index > position else { return nil }
        return weekdayWord(at: index, bare: true)
    }

    private func weekdayWord(at position: Int, bare: Bool) -> Int? {
        guard position < stop else { return nil }
        let value = scalar(at: position)
        if NotepadWords.koreanWeekdays.contains(value) {
            let after = position + 3
            if scalar(at: after) == NotepadWords.weekdayEnding && scalar(at: after + 3) == NotepadWords.day { return after + 6 }
            return bare ? nil : after
        }
        if NotepadWords.japaneseWeekdays.contains(value) {
            let after = position + 3
            guard scalar(at: after) == NotepadWords.japaneseWeekdayMark else { return bare ? nil : after }
            if scalar(at: after + 3) == NotepadWords.japaneseDay { return after + 6 }
            return bare ? nil : after + 3
        }
        guard let word = readLetters(at: position), NotepadWords.weekdays[word.packed] != nil,
              !bare || isUppercase(bytes[position]) else { return nil }
        var end = word.end
        if end < stop && bytes[end] == UInt8(ascii: ".") { end += 1 }
        return end < stop && isDigit(bytes[end]) ? nil : end
    }

    /// `14:30`, `9:05:10`, `오후 3:30`, `오전 9:05`, `3:30 PM`, `3:30pm`, `3:30 p.m.`, `PM 3:30`,
    /// `오후 3시 30분`, `15시`. Hours must exist on the clock used: "오후 15:30" is no time.
    private func scanTime(at position: Int) -> (hour: Int, minute: Int, end: Int)? {
        guard position < stop else { return nil }
        var index = position
        var afternoon: Bool?
        if scalar(at: index) == NotepadWords.morningOrAfternoon {
            let second = scalar(at: index + 3)
            guard second == NotepadWords.beforeNoon || second == NotepadWords.afterNoon else { return nil }
            afternoon = second == NotepadWords.afterNoon
            index = skipSpaces(index + 6)
        } else if isLetter(bytes[index]) {
            guard let word = readLetters(at: index), word.packed == NotepadWords.am || word.packed == NotepadWords.pm else {
                return nil
            }
            afternoon = word.packed == NotepadWords.pm
            index = skipSpaces(word.end)
            guard index > word.end else { return nil }
        }
        guard let clock = scanClock(at: index) else { return nil }
        var end = clock.end
        if afternoon == nil, let suffix = scanMeridiemSuffix(after: end) {
            afternoon = suffix.afternoon
            end = suffix.end
        }
        guard isTimeBoundary(end), clock.minute < 60 else { return nil }
        var hour = clock.hour
        if let afternoon {
            guard hour <= 12 else { return nil }
            hour = hour % 12 + (afternoon ? 12 : 0)
        }
        guard hour < 24 else { return nil }
        return (hour, clock.minute, end)
    }

    private func scanClock(at position: Int) -> (hour: Int, minute: Int, end: Int)? {
        guard let hour = readNumber(at: position, maxDigits: 2) else { return nil }
        if hour.end < stop, bytes[hour.end] == UInt8(ascii: ":") {
            guard let minute = readNumber(at: hour.end + 1, maxDigits: 2), minute.digits == 2 else { return nil }
            var end = minute.end
            if end < stop, bytes[end] == UInt8(ascii: ":"), let second = readNumber(at: end + 1, maxDigits: 2),
               second.digits == 2 {
                end = second.end
            }
            return (hour.value, minute.value, end)
        }
        guard scalar(at: hour.end) == NotepadWords.hour else { return nil }
        let end = hour.end + 3
        guard scalar(at: end) != NotepadWords.span else { return nil }
        if let minute = readNumber(at: skipSpaces(end), maxDigits: 2), scalar(at: minute.end) == NotepadWords.minute {
            return (hour.value, minute.value, minute.end + 3)
        }
        return (hour.value, 0, end)
    }

    private func scanMeridiemSuffix(after position: Int) -> (afternoon: Bool, end: Int)? {
        var index = position
        if index < stop && bytes[index] == UInt8(ascii: " ") { index += 1 }
        guard index + 1 < stop else { return nil }
        let letter = bytes[index] | 0x20
        guard letter == UInt8(ascii: "a") || letter == UInt8(ascii: "p") else { return nil }
        var end: Int
        if bytes[index + 1] | 0x20 == UInt8(ascii: "m") {
            end = index + 2
        } else if index + 3 < stop, bytes[index + 1] == UInt8(ascii: "."), bytes[index + 2] | 0x20 == UInt8(ascii: "m"),
                  bytes[index + 3] == UInt8(ascii: ".") {
            end = index + 4
        } else {
            return nil
        }
        guard end == stop || !isLetter(bytes[end]) else { return nil }
        return (letter == UInt8(ascii: "p"), end)
    }

    private func isTimeBoundary(_ position: Int) -> Bool {
        guard position < stop else { return true }
        let next = bytes[position]
        if isDigit(next) || isLetter(next) { return false }
        if next == UInt8(ascii: ":") || next == UInt8(ascii: ".") {
            return !(position + 1 < stop && isDigit(bytes[position + 1]))
        }
        return true
    }

    // MARK: Names

    /// `aged`: before an age in brackets that ends the line, PiyoLog's `はなこ (0歳3か月4日)`.
    private enum NameForm { case colon, dash, bare, aged }

    /// `[레오]`, `레오:`, `레오 -`, `はなこ (0歳3か月4日)`, or a bare word that is a known name. An
    /// unknown word counts as a name only in brackets, before a colon or dash or before an age,
    /// and only if it looks like one (starts with a letter, one word): that is where the keeper
    /// meant a name, so the line is reported rather than filed under the wrong subject.
    private func scanName(at position: Int) -> (mark: NotepadNameMark, end: Int)? {
        guard position < stop else { return nil }
        if let bracket = bracketLength(at: position, closing: false) {
            var close = position + bracket
            var closeLength: Int?
            while close < stop {
                if let length = bracketLength(at: close, closing: true) { closeLength = length; break }
                if bracketLength(at: close, closing: false) != nil { return nil }
                close += 1
            }
            guard let closeLength else { return nil }
            let inner = trimmed(position + bracket..<close)
            guard !inner.isEmpty else { return nil }
            let spelled = string(inner)
            let lookup = names.resolve(spelled, singleWord: false)
            switch lookup {
            case .notAName: return nil
            case .unknown: guard looksLikeName(inner) else { return nil }
            case .subject, .ambiguous: break
            }
            return (NotepadNameMark(spelled: spelled, lookup: lookup), close + closeLength)
        }
        guard startsWithLetter(position) else { return nil }
        var best: (mark: NotepadNameMark, end: Int)?
        var unknown: (mark: NotepadNameMark, end: Int)?
        let ageStart = ageBracketStart()
        var wordStart = position
        for words in 1...max(1, names.longestNameWords) {
            // `はなこ(0歳3か月4日)`: the age may follow the name without a space.
            let wordEnd = min(endOfWord(from: wordStart), ageStart ?? stop)
            guard wordEnd > wordStart else { break }
            if let (form, end) = nameForm(after: wordEnd, ageStart: ageStart),
               form != .bare || words > 1 || !isSimple(position..<wordEnd) || names.mayName(byteCount: wordEnd - position) {
                let spelled = string(position..<wordEnd)
                let lookup = names.resolve(spelled, singleWord: words == 1)
                switch lookup {
                case .subject, .ambiguous:
                    let shown = words == 1 ? spelled : spelled.split(whereSeparator: \.isWhitespace).joined(separator: " ")
                    best = (NotepadNameMark(spelled: shown, lookup: lookup), end)
                case .unknown where words == 1 && form != .bare && looksLikeName(position..<wordEnd):
                    unknown = (NotepadNameMark(spelled: spelled, lookup: .unknown), end)
                default:
                    break
                }
            }
            guard wordEnd < stop, isSpace(wordEnd) else { break }
            wordStart = skipSpaces(wordEnd)
            guard wordStart < stop else { break }
        }
        return best ?? unknown
    }

    /// A word ends at white space or a colon.
    private func endOfWord(from position: Int) -> Int {
        var index = position
        while index < stop && bytes[index] != UInt8(ascii: ":") && !isFullWidthColon(index) && !isSpace(index) {
            index += 1
        }
        return index
    }

    /// How a word is marked as a name, and where the mark ends. A colon followed by `/` is a URL.
    private func nameForm(after wordEnd: Int, ageStart: Int?) -> (NameForm, Int)? {
        guard wordEnd < stop else { return (.bare, wordEnd) }
        if let ageStart, skipSpaces(wordEnd) == ageStart { return (.aged, stop) }
        if bytes[wordEnd] == UInt8(ascii: ":") {
            return wordEnd + 1 < stop && bytes[wordEnd + 1] == UInt8(ascii: "/") ? nil : (.colon, wordEnd + 1)
        }
        if isFullWidthColon(wordEnd) { return (.colon, wordEnd + 3) }
        let dashStart = skipSpaces(wordEnd)
        if dashStart < stop {
            let length = bytes[dashStart] == UInt8(ascii: "-") ? 1 : longDashLength(at: dashStart) ?? 0
            if length > 0, dashStart + length == stop || isSpace(dashStart + length) { return (.dash, dashStart + length) }
        }
        return (.bare, wordEnd)
    }

    /// Where an age in brackets that ends the line starts (`(0歳3か月4日)`, `（1才）`): digits first,
    /// the years' mark (歳, 才) in it, and nothing but digits, spaces and an age's marks; nil when
    /// the line ends otherwise, as `起きる (1時間30分)` does.
    private func ageBracketStart() -> Int? {
        let close: Int
        if bytes[stop - 1] == UInt8(ascii: ")") {
            close = stop - 1
        } else if stop - start >= 3, isFullWidth(stop - 3, 0x89) {
            close = stop - 3
        } else {
            return nil
        }
        var sawYears = false
        var index = close
        while index > start {
            var lead = index - 1
            while lead > start && bytes[lead] & 0xC0 == 0x80 { lead -= 1 }
            let value = scalar(at: lead)
            if value == UInt32(UInt8(ascii: "(")) || value == 0xFF08 {
                let first = skipSpaces(lead + (value == 0xFF08 ? 3 : 1))
                return sawYears && first < close && isDigit(bytes[first]) ? lead : nil
            }
            if NotepadWords.ageYears.contains(value) {
                sawYears = true
            } else if !(value < 0x80 && isDigit(UInt8(value))) && !NotepadWords.ageMarks.contains(value) && !isSpace(lead) {
                return nil
            }
            index = lead
        }
        return nil
    }

    /// Starts with a letter and holds no white space.
    private func looksLikeName(_ range: Range<Int>) -> Bool {
        guard startsWithLetter(range.lowerBound) else { return false }
        for index in range where isSpace(index) { return false }
        return true
    }

    private func startsWithLetter(_ position: Int) -> Bool {
        let first = bytes[position]
        if first < 0x80 { return isLetter(first) }
        let value = scalar(at: position)
        // Hangul syllables, the usual first letter here, are letters without a property lookup.
        if (0xAC00...0xD7A3).contains(value) { return true }
        return Unicode.Scalar(value).map(\.properties.isAlphabetic) ?? false
    }

    /// ASCII and precomposed Hangul only: then the bytes are already NFC and fold case without
    /// changing length, so a byte count can rule a word out before a String is made.
    private func isSimple(_ range: Range<Int>) -> Bool {
        var index = range.lowerBound
        while index < range.upperBound {
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
            } else if (lead == 0xEA && bytes[index + 1] >= 0xB0) || lead == 0xEB || lead == 0xEC
                        || (lead == 0xED && bytes[index + 1] <= 0x9D) {
                index += 3
            } else {
                return false
            }
        }
        return true
    }

    private func bracketLength(at position: Int, closing: Bool) -> Int? {
        if bytes[position] == UInt8(ascii: closing ? "]" : "[") { return 1 }
        if bytes[position] == 0xE3, bytes[position + 1] == 0x80, bytes[position + 2] == (closing ? 0x91 : 0x90) { return 3 }  // 【】
        return nil
    }

    // MARK: Characters

    struct Number {
        let value: Int
        let digits: Int
        let end: Int
    }

    /// Digits from `position`; nil when there are none or more than `maxDigits`.
    private func readNumber(at position: Int, maxDigits: Int) -> Number? {
        var index = position
        var value = 0
        while index < stop, isDigit(bytes[index]) {
            value = value * 10 + Int(bytes[index] &- UInt8(ascii: "0"))
            index += 1
            if index - position > maxDigits { return nil }
        }
        return index > position ? Number(value: value, digits: index - position, end: index) : nil
    }

    /// ASCII letters from `position`, packed for `NotepadWords`.
    private func readLetters(at position: Int) -> (packed: UInt64, end: Int)? {
        var index = position
        while index < stop, isLetter(bytes[index]) { index += 1 }
        guard index > position else { return nil }
        return (NotepadWords.pack(bytes[position..<index]), index)
    }

    /// The scalar at `position` (0 past the end), decoded by hand from valid UTF-8.
    private func scalar(at position: Int) -> UInt32 {
        guard position < stop else { return 0 }
        let lead = UInt32(bytes[position])
        if lead < 0x80 { return lead }
        if lead < 0xE0 { return (lead & 0x1F) << 6 | UInt32(bytes[position + 1] & 0x3F) }
        if lead < 0xF0 {
            return (lead & 0x0F) << 12 | UInt32(bytes[position + 1] & 0x3F) << 6 | UInt32(bytes[position + 2] & 0x3F)
        }
        return (lead & 0x07) << 18 | UInt32(bytes[position + 1] & 0x3F) << 12 | UInt32(bytes[position + 2] & 0x3F) << 6
            | UInt32(bytes[position + 3] & 0x3F)
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }
    private func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) &- UInt8(ascii: "a") < 26 }
    private func isUppercase(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "A") < 26 }

    private func isFullWidth(_ position: Int, _ last: UInt8) -> Bool {
        position + 2 < stop && bytes[position] == 0xEF && bytes[position + 1] == 0xBC && bytes[position + 2] == last
    }

    private func isFullWidthColon(_ position: Int) -> Bool { isFullWidth(position, 0x9A) }

    /// En dash and em dash, which word processors put in for " - ".
    private func longDashLength(at position: Int) -> Int? {
        guard position + 2 < stop, bytes[position] == 0xE2, bytes[position + 1] == 0x80,
              bytes[position + 2] == 0x93 || bytes[position + 2] == 0x94 else { return nil }
        return 3
    }

    private func isSpace(_ position: Int) -> Bool {
        NotepadLineScanner.spaceLength(bytes, at: position, stop: stop) > 0
    }

    private func skipSpaces(_ position: Int) -> Int {
        var index = position
        while index < stop {
            let length = NotepadLineScanner.spaceLength(bytes, at: index, stop: stop)
            guard length > 0 else { break }
            index += length
        }
        return index
    }

    private func trimmed(_ range: Range<Int>) -> Range<Int> {
        let lower = skipSpaces(range.lowerBound)
        var upper = range.upperBound
        while upper > lower {
            let length = NotepadLineScanner.trailingSpaceLength(bytes, before: upper)
            guard length > 0 else { break }
            upper -= length
        }
        return lower..<max(lower, upper)
    }

    func string(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// Tab, space, no-break space, ideographic space (what Korean IMEs type), a stray BOM and
    /// zero-width space all separate words; 0 when the scalar at `position` is none of them.
    private static func spaceLength(_ bytes: UnsafeBufferPointer<UInt8>, at position: Int, stop: Int) -> Int {
        guard position < stop else { return 0 }
        let lead = bytes[position]
        if lead == 0x20 || (0x09...0x0D).contains(lead) { return 1 }
        if lead == 0xC2 { return bytes[position + 1] == 0xA0 ? 2 : 0 }
        if lead == 0xE3 { return bytes[position + 1] == 0x80 && bytes[position + 2] == 0x80 ? 3 : 0 }
        if lead == 0xEF { return bytes[position + 1] == 0xBB && bytes[position + 2] == 0xBF ? 3 : 0 }
        if lead == 0xE2 { return bytes[position + 1] == 0x80 && bytes[position + 2] == 0x8B ? 3 : 0 }
        return 0
    }

    private static func trailingSpaceLength(_ bytes: UnsafeBufferPointer<UInt8>, before end: Int) -> Int {
        guard end > 0 else { return 0 }
        let last = bytes[end - 1]
        if last == 0x20 || (0x09...0x0D).contains(last) { return 1 }
        if end >= 2, bytes[end - 2] == 0xC2, last == 0xA0 { return 2 }
        guard end >= 3 else { return 0 }
        let (first, second) = (bytes[end - 3], bytes[end - 2])
        if (first == 0xE3 && second == 0x80 && last == 0x80) || (first == 0xEF && second == 0xBB && last == 0xBF)
            || (first == 0xE2 && second == 0x80 && last == 0x8B) {
            return 3
        }
        return 0
    }
}
