import ObjectGraph
import Testing

@Suite("Display width: terminal columns of text")
struct DisplayWidthTests {
    @Test(arguments: [
        ("Hoover Tower", 12),
        ("", 0),
        ("嘆きの天使", 10),  // kanji and hiragana: two columns each
        ("ｶﾀｶﾅ", 4),  // halfwidth katakana: one each
        ("ＡＢＣ", 6),  // fullwidth Latin
        ("한국어", 6),  // Hangul syllables
        ("\u{1100}\u{1161}\u{11A8}", 2),  // the same syllable decomposed: 각
        ("Cafe\u{301}", 4),  // combining acute: no column of its own
        ("Café", 4),
        ("Ángel del dolor", 15),
        ("Dvořák", 6),
        ("Symphony 🎻", 11),  // emoji: two
        ("👨‍👩‍👧", 2),  // one family, joined with zero-width joiners
        ("❤️", 2),  // text-default heart drawn as emoji (variation selector 16)
        ("❤", 1),  // the same heart as text
        ("🇯🇵", 2),  // a flag
        ("a\u{200B}b", 2),  // zero-width space
        ("「東京」", 8),  // CJK punctuation
        ("\u{3000}", 2),  // ideographic space
    ])
    func widths(text: String, columns: Int) {
        #expect(DisplayWidth.of(text) == columns)
    }

    @Test func truncatingAndPaddingCountColumns() {
        #expect(DisplayWidth.truncated("嘆きの天使", to: 10) == "嘆きの天使")
        #expect(DisplayWidth.truncated("嘆きの天使", to: 9) == "嘆きの天…")
        #expect(DisplayWidth.of(DisplayWidth.truncated("嘆きの天使", to: 9)) == 9)
        // A wide character that would straddle the limit is left out whole.
        #expect(DisplayWidth.truncated("嘆きの天使", to: 8) == "嘆きの…")
        #expect(DisplayWidth.of(DisplayWidth.truncated("嘆きの天使", to: 8)) == 7)
        #expect(DisplayWidth.truncated("Hoover Tower", to: 6) == "Hoove…")
        #expect(DisplayWidth.truncated("Cafe\u{301} au lait", to: 5) == "Cafe\u{301}…")
        #expect(DisplayWidth.truncated("abc", to: 0) == "")
        #expect(DisplayWidth.padded("嘆き", to: 6) == "嘆き  ")
        #expect(DisplayWidth.padded("Cafe\u{301}", to: 6) == "Cafe\u{301}  ")
        #expect(DisplayWidth.padded("toolong", to: 3) == "toolong")
    }
}
