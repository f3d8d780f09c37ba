/// What keyword lookups found for single words: logs repeat a small vocabulary, so most words
/// are looked up once. Bounded like every memo, since one is kept for a whole run.
struct WordMemo: Sendable {
    private var kinds = BoundedMemo<String?>()
    private var foods = BoundedMemo<String?>()

    mutating func kind(of word: WordScanner.Word, in classifier: KeywordClassifier) -> String? {
        kinds.answer(word.text) { _ in classifier.kind(for: word) }
    }

    mutating func food(of word: WordScanner.Word, in classifier: KeywordClassifier) -> String? {
        foods.answer(word.text) { _ in classifier.food(for: word) }
    }
}
