/// Answers remembered by the text asked about, up to a limit. Logs and exports repeat a small
/// vocabulary (a handful of names, a dozen kinds, the same entries day after day), so the work
/// of reading each is done once; the limits keep a file full of distinct values from growing it
/// without end (past `limit` answers, and for texts longer than `longestText` bytes, which are
/// rarely written twice, answers are worked out and not kept).
///
/// Texts are told apart by their UTF-8 bytes, not by Unicode equivalence: that skips the
/// normalisation `String` hashing does for non-ASCII text, and at worst works out the same
/// answer twice for two spellings of one text.
struct BoundedMemo<Answer> {
    private struct Question: Hashable {
        let text: String

        static func == (lhs: Question, rhs: Question) -> Bool {
            lhs.text.utf8.elementsEqual(rhs.text.utf8)
        }

        func hash(into hasher: inout Hasher) {
            var text = text
            text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        }
    }

    private var answers: [Question: Answer] = [:]
    let limit: Int
    let longestText: Int

    init(limit: Int = 4096, longestText: Int = 256) {
        self.limit = limit
        self.longestText = longestText
    }

    mutating func answer(_ text: String, _ work: (String) throws -> Answer) rethrows -> Answer {
        let question = Question(text: text)
        if let known = answers[question] { return known }
        let answer = try work(text)
        if answers.count < limit && text.utf8.count <= longestText { answers[question] = answer }
        return answer
    }
}

extension BoundedMemo: Sendable where Answer: Sendable {}
