import Synchronization
import Testing
@testable import DossierRecords

@Suite("Memos: answers kept within bounds, and lent to one worker at a time")
struct MemoTests {
    /// The answers to `texts` in turn (each text's byte count), and the texts that were worked out.
    func ask(_ memo: inout BoundedMemo<Int>, _ texts: [String]) -> (answers: [Int], worked: [String]) {
        var worked: [String] = []
        let answers = texts.map { text in
            memo.answer(text) { text in
                worked.append(text)
                return text.utf8.count
            }
        }
        return (answers, worked)
    }

    @Test("A full memo that answers almost nothing (notes that never repeat) is passed by for a while, then asked again")
    func fullMemoThatMissesIsPassedBy() {
        var memo = BoundedMemo<Int>(limit: 1, longestText: 64)
        _ = ask(&memo, ["kept"])
        // A trial of distinct texts, one in 32 of them the kept one: under one in sixteen answered.
        let trial = (0..<BoundedMemo<Int>.trial).map { $0 % 32 == 0 ? "kept" : "note \($0)" }
        let during = ask(&memo, trial)
        #expect(during.worked.count == trial.count - trial.count / 32)
        // Passed by: even the kept text is worked out, for `pause` questions.
        let passedBy = ask(&memo, Array(repeating: "kept", count: BoundedMemo<Int>.pause))
        #expect(passedBy.worked.count == BoundedMemo<Int>.pause)
        // Then asked again, and it answers.
        #expect(ask(&memo, ["kept"]).worked.isEmpty)
    }

    @Test("A full memo that answers often enough keeps being asked")
    func fullMemoThatAnswersIsKept() {
        var memo = BoundedMemo<Int>(limit: 1, longestText: 64)
        _ = ask(&memo, ["kept"])
        let trial = (0..<BoundedMemo<Int>.trial).map { $0 % 8 == 0 ? "kept" : "note \($0)" }
        _ = ask(&memo, trial)
        #expect(ask(&memo, ["kept"]).worked.isEmpty)
    }

    @Test("The same text is worked out once; past the limit, and for texts longer than the longest kept, every time")
    func boundedMemoKeepsWithinItsLimits() {
        var memo = BoundedMemo<Int>(limit: 2, longestText: 8)
        let asked = ask(&memo, ["레오", "레오", "coco", "레오", "mango", "mango", "coco"])
        #expect(asked.answers == [6, 6, 4, 6, 5, 5, 4])
        // "mango" came after the limit of two answers: worked out each time it was asked.
        #expect(asked.worked == ["레오", "coco", "mango", "mango"])

        var long = BoundedMemo<Int>(limit: 10, longestText: 8)
        let askedLong = ask(&long, ["123456789", "123456789", "12345678", "12345678"])
        #expect(askedLong.answers == [9, 9, 8, 8])
        #expect(askedLong.worked == ["123456789", "123456789", "12345678"])
    }

    @Test("Thousands of texts are each worked out once and found again as the table grows, long and short alike")
    func boundedMemoGrows() {
        var memo = BoundedMemo<Int>(limit: 5000, longestText: 256)
        let texts = (0..<5000).map { index in index % 3 == 0 ? "레오 \(index)" : String(repeating: "x", count: index % 40) + "\(index)" }
        let first = ask(&memo, texts)
        #expect(first.answers == texts.map(\.utf8.count))
        #expect(first.worked == texts)
        let again = ask(&memo, texts.reversed())
        #expect(again.answers == texts.reversed().map(\.utf8.count))
        #expect(again.worked == [])
        // Full: a new text is worked out every time, the known ones still answered.
        #expect(ask(&memo, ["new", "new", texts[0]]).worked == ["new", "new"])
    }

    @Test("Texts are told apart by their bytes: the two spellings of 한 are two questions with the same answer")
    func boundedMemoComparesBytes() {
        var memo = BoundedMemo<String>()
        var worked = 0
        let composed = "\u{D55C}", decomposed = "\u{1112}\u{1161}\u{11AB}"
        for text in [composed, decomposed, composed] {
            _ = memo.answer(text) { _ in
                worked += 1
                return "한"
            }
        }
        #expect(worked == 2)
    }

    @Test("A value lent and given back is lent again with what it learnt; two borrowers at once get two values")
    func lendingPoolReusesValues() {
        let made = Mutex(0)
        let pool = LendingPool<[Int]> {
            made.withLock { $0 += 1 }
            return []
        }
        pool.borrow { $0.append(1) }
        #expect(pool.borrow { values in values } == [1])
        let inner = pool.borrow { outer in
            outer.append(2)
            return pool.borrow { inner in inner }
        }
        #expect(inner == [])
        #expect(made.withLock { $0 } == 2)
        // Both values are back: the last one given back is lent first.
        #expect(pool.borrow { $0 } == [1, 2])
    }
}
