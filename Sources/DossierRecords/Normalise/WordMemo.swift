/// What keyword lookups found for the words of one batch of entries: logs repeat a small
/// vocabulary, so most words are looked up once. Local to one batch, so the cores working on
/// different batches share nothing and take no lock.
struct WordMemo {
    private var kinds: [String: String?] = [:]
    private var foods: [String: String?] = [:]

    mutating func kind(of word: WordScanner.Word, in classifier: KeywordClassifier) -> String? {
        if let known = kinds[word.text] { return known }
        let found = classifier.kind(for: word)
        kinds[word.text] = .some(found)
        return found
    }

    mutating func food(of word: WordScanner.Word, in classifier: KeywordClassifier) -> String? {
        if let known = foods[word.text] { return known }
        let found = classifier.food(for: word)
        foods[word.text] = .some(found)
        return found
    }
}
