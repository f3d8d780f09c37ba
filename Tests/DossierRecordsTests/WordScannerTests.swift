import Testing
@testable import DossierRecords

@Suite("Words of an entry, as classification and quantities read them")
struct WordScannerTests {
    func words(_ text: String) -> [String] { WordScanner.words(in: text).map(\.text) }

    @Test("Splits on what is not a letter or digit, keeps numbers whole with their marks and glued units, lowercases")
    func splitsAndLowercases() {
        #expect(words("Leo ATE 3.5g of crickets, then 1,250 ml... Water!") ==
            ["leo", "ate", "3.5g", "of", "crickets", "then", "1,250", "ml", "water"])
        #expect(words("귀뚜라미를 5마리 먹음 (활발함)") == ["귀뚜라미를", "5마리", "먹음", "활발함"])
        #expect(words("Été à l'Œuf: ÉCLOSION") == ["été", "à", "l", "œuf", "éclosion"])
        #expect(words(" , .5 3. ,4") == ["5", "3", "4"])
        #expect(words("") == [])
    }

    @Test("Says which words are Hangul")
    func marksHangul() {
        #expect(WordScanner.words(in: "체중 45g weight").map(\.isHangul) == [true, false, false])
    }
}
