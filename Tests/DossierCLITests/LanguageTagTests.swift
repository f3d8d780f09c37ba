@testable import DossierReport
import Testing

@Suite("Names and notes in a page keep the text around them in its own order")
struct LanguageTagTests {
    @Test("A name holding a right-to-left override is isolated in <bdi>, so the text after it reads in its own order; others are as before")
    func rightToLeftOverrideIsIsolated() {
        #expect(LanguageTag.span("Kid\u{202E}evil") == "<bdi>Kid\u{202E}evil</bdi>")
        #expect(LanguageTag.span("레오\u{2067}") == "<bdi><span lang=\"ko\">레오\u{2067}</span></bdi>")
        #expect(LanguageTag.span("레오") == "<span lang=\"ko\">레오</span>")
        #expect(LanguageTag.span("Leo <b>") == "Leo &lt;b&gt;")
    }
}
