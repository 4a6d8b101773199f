import Flickr
import Foundation
import Testing

@testable import SPoTKit

@Suite("Import rules: titles, subtitles, sections, spots")
struct ImportRulesTests {
    let rules = ImportRules()

    func photo(title: String = "", description: String? = nil, tags: [String] = []) -> FlickrPhoto {
        FlickrPhoto(id: "1", owner: "o", secret: "s", server: "1", title: title, descriptionHTML: description, tags: tags)
    }

    @Test func titleFallsBackToTheDescriptionsFirstLineThenUnknown() {
        #expect(rules.title(of: photo(title: "  Hoover   Tower ")) == "Hoover Tower")
        #expect(rules.title(of: photo(description: "<b>First</b> line<br>second line")) == "First line")
        #expect(rules.title(of: photo(description: "\n\n  \nThe Oval &amp; palms\nmore")) == "The Oval & palms")
        #expect(rules.title(of: photo(description: "")) == "Unknown")
        #expect(rules.title(of: photo()) == "Unknown")
        #expect(rules.title(of: photo(description: "<p> </p>")) == "Unknown")
    }

    @Test func subtitleIsTheDescriptionAsPlainText() {
        let html = #"Carillon bells at 6pm &mdash; 48 of them.<br/> Deck is <b>$5</b> &amp; <a href="x" onerror="alert(1)">free</a>&#33; &#x263A;"#
        #expect(rules.subtitle(of: photo(description: html)) == "Carillon bells at 6pm — 48 of them. Deck is $5 & free! ☺")
        #expect(rules.subtitle(of: photo(description: "a<script>alert('x')</script>b")) == "a b")
        #expect(rules.subtitle(of: photo(description: "1 < 2 and &unknown; stays")) == "1 < 2 and &unknown; stays")
        #expect(rules.subtitle(of: photo(description: nil)) == "")
    }

    @Test func sectionIsTheFoldedUppercasedFirstLetterOrHash() {
        #expect(rules.sectionTitle(ofTitle: "hoover") == "H")
        #expect(rules.sectionTitle(ofTitle: "Éclair at the Oval") == "E")
        #expect(rules.sectionTitle(ofTitle: "ñandú") == "N")
        #expect(rules.sectionTitle(ofTitle: "フーバータワー") == "#")
        #expect(rules.sectionTitle(ofTitle: "2019 commencement") == "#")
        #expect(rules.sectionTitle(ofTitle: "<script>") == "#")
        #expect(rules.sectionTitle(ofTitle: "") == "#")
        #expect(rules.sectionTitle(ofTitle: "🎓 grads") == "#")
    }

    @Test func spotsAreLowercasedTagsWithoutExcludedOnesEachOnce() {
        #expect(rules.spotNames(of: ["cs193pspot", "HooverTower", "portrait", "hoovertower", "Dusk", "LANDSCAPE"]) == ["hoovertower", "dusk"])
        #expect(rules.displayName(ofSpot: "hoovertower") == "Hoovertower")
        #expect(rules.displayName(ofSpot: "展望台") == "展望台")
        let custom = ImportRules(excludedTags: ["CS193PSPOT", "Stanford"])
        #expect(custom.spotNames(of: ["cs193pspot", "stanford", "portrait"]) == ["portrait"])
    }
}
