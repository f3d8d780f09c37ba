import Foundation
import Synchronization

/// Answers remembered by the text asked about, up to a limit. Logs and exports repeat a small
/// vocabulary (a handful of names, a dozen kinds, the same entries day after day), so the work
/// of reading each is done once; the limits keep a file full of distinct values from growing it
/// without end (past `limit` answers, and for texts longer than `longestText` bytes, which are
/// rarely written twice, answers are worked out and not kept).
///
/// Texts are told apart by their UTF-8 bytes, not by Unicode equivalence: that skips the
/// normalisation `String` hashing and comparing do for non-ASCII text, and at worst works out
/// the same answer twice for two spellings of one text.
///
/// It is asked once or more for every line of an import, so it is its own small hash table
/// (open addressing, linear probing, a multiply-and-shift hash of the bytes, eight at a time)
/// rather than a `Dictionary`, whose seeded SipHash and generic probing cost more for these
/// short keys. Its tables stay at most half full, so a probe ends soon. (What it saves against a
/// `Dictionary` of strings: docs/performance.md, "BoundedMemo".)
struct BoundedMemo<Answer> {
    /// An answer and where its text's bytes are kept in `texts`: comparing a question with a
    /// known text is then a look at two runs of bytes, with no string copied or retained.
    fileprivate struct Entry {
        let hash: UInt64
        let start: Int
        let length: Int
        let answer: Answer
    }

    private var slots: [Entry?] = Array(repeating: nil, count: 16)
    /// The known texts' UTF-8 bytes, one after another.
    private var texts: [UInt8] = []
    private var count = 0
    let limit: Int
    let longestText: Int
    /// Once full, how the last `trial` questions fared; a memo that answers fewer than one in
    /// sixteen of them (notes that never repeat) is passed by for the next `pause` questions,
    /// then tried again: hashing and probing every question of such a file is work for nothing
    /// (docs/performance.md, "BoundedMemo").
    private var asked = 0
    private var answered = 0
    private var bypassing = 0
    static var trial: Int { 4096 }
    static var pause: Int { 65536 }

    init(limit: Int = 4096, longestText: Int = 256) {
        self.limit = limit
        self.longestText = longestText
    }

    /// Inlined, so `work` runs as part of the caller: specialised out of line, a closure that
    /// captures a struct had it copied into a new context on every call.
    @inline(__always)
    mutating func answer<Text: StringProtocol>(_ text: Text, _ work: (String) throws -> Answer) rethrows -> Answer {
        guard text.utf8.count <= longestText else { return try work(String(text)) }
        if bypassing > 0 {
            bypassing -= 1
            return try work(String(text))
        }
        // Read in place: a native string's bytes are contiguous, and so are a substring's of one
        // (a copy to call `withUTF8` on would retain and release it on every question).
        let place = text.utf8.withContiguousStorageIfAvailable { find($0) } ?? {
            var copy = String(text)
            return copy.withUTF8 { find($0) }
        }()
        if count >= limit { noteTrial(answered: place.answer != nil) }
        if let known = place.answer { return known }
        let answer = try work(String(text))
        remember(answer, for: text, at: place.slot, hash: place.hash)
        return answer
    }

    private mutating func noteTrial(answered wasAnswered: Bool) {
        asked += 1
        if wasAnswered { answered += 1 }
        guard asked == BoundedMemo.trial else { return }
        if answered * 16 < asked { bypassing = BoundedMemo.pause }
        asked = 0
        answered = 0
    }

    /// The slot holding the answer for `bytes`, or the empty one where it would go.
    private func find(_ bytes: UnsafeBufferPointer<UInt8>) -> (slot: Int, hash: UInt64, answer: Answer?) {
        let hash = BoundedMemo.hash(bytes)
        let mask = slots.count - 1
        var index = Int(truncatingIfNeeded: hash) & mask
        return texts.withUnsafeBufferPointer { known in
            while let entry = slots[index] {
                if entry.hash == hash, entry.length == bytes.count,
                   entry.length == 0 || memcmp(known.baseAddress! + entry.start, bytes.baseAddress!, entry.length) == 0 {
                    return (index, hash, entry.answer)
                }
                index = (index + 1) & mask
            }
            return (index, hash, nil)
        }
    }

    private mutating func remember<Text: StringProtocol>(_ answer: Answer, for text: Text, at slot: Int, hash: UInt64) {
        guard count < limit else { return }
        slots[slot] = Entry(hash: hash, start: texts.count, length: text.utf8.count, answer: answer)
        texts.append(contentsOf: text.utf8)
        count += 1
        if count * 2 > slots.count { grow() }
    }

    private mutating func grow() {
        let old = slots
        slots = Array(repeating: nil, count: old.count * 2)
        let mask = slots.count - 1
        for case let entry? in old {
            var index = Int(truncatingIfNeeded: entry.hash) & mask
            while slots[index] != nil { index = (index + 1) & mask }
            slots[index] = entry
        }
    }

    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash = UInt64(truncatingIfNeeded: bytes.count) &* 0x9E37_79B9_7F4A_7C15
        func mix(_ word: UInt64) {
            hash = (hash ^ word) &* 0xBF58_476D_1CE4_E5B9
            hash ^= hash >> 31
        }
        guard let base = bytes.baseAddress else { return hash }
        var index = 0
        while index + 8 <= bytes.count {
            mix(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            index += 8
        }
        if index < bytes.count {
            var word: UInt64 = 0
            for offset in index..<bytes.count { word |= UInt64(base[offset]) << (8 * UInt64(offset - index)) }
            mix(word)
        }
        // Slots are chosen by the low bits: fold the high ones in.
        return hash ^ (hash >> 29)
    }
}

extension BoundedMemo: Sendable where Answer: Sendable {}
extension BoundedMemo.Entry: Sendable where Answer: Sendable {}

// MARK: - LendingPool

/// Values that grow more useful with use but are changed by one worker at a time, lent out and
/// taken back: a transform's memo of what it has read, which each batch would otherwise start
/// again from nothing. A borrower takes an idle value (or a new one when all are lent), so
/// there are never more values than workers at once, and no lock is held while one is used.
///
/// Kept from batch to batch because words repeat across a file even where whole notes do not:
/// a new memo for every batch would read them all again (docs/performance.md, "LendingPool").
final class LendingPool<Value: Sendable>: Sendable {
    private let idle = Mutex<[Value]>([])
    private let make: @Sendable () -> Value

    init(_ make: @escaping @Sendable () -> Value) {
        self.make = make
    }

    func borrow<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        var value = idle.withLock { $0.popLast() } ?? make()
        defer { idle.withLock { [value] in $0.append(value) } }
        return try body(&value)
    }
}
