import Flickr
import Testing

@testable import FlickrSandbox

/// The bundled catalogue is big, varied and awkward enough to exercise the app.
@Suite struct SandboxCatalogueTests {
    let catalogue = SandboxCatalogue.stanford
    var photos: [SandboxPhoto] { catalogue.basePhotos }

    @Test func hasAtLeast60PhotosOfAtLeast15SpotsBySeveralPhotographers() {
        #expect(photos.count >= 60)
        let usedSpots = Set(photos.flatMap { $0.spots.map(\.tag) })
        #expect(usedSpots.count >= 15)
        #expect(Set(photos.map(\.owner.nsid)).count >= 6)
        #expect(Set(photos.map(\.id)).count == photos.count, "ids are unique")
        #expect(Set(photos.map(\.secret)).count == photos.count)
        #expect(Set(photos.map(\.uploaded)).count == photos.count, "each upload has its own time")
        for spot in usedSpots {
            #expect(photos.filter { $0.hasTag(spot) }.count >= 3, "\(spot) has a few photos")
        }
    }

    @Test func coordinatesAreNearTheirSpots() {
        for photo in photos {
            guard let latitude = photo.latitude, let longitude = photo.longitude else { continue }
            let spot = photo.spots[0]
            #expect(abs(latitude - spot.latitude) < 0.001 && abs(longitude - spot.longitude) < 0.001, "\(photo.title)")
            #expect((37.40...37.45).contains(latitude) && (-122.19 ... -122.15).contains(longitude), "on campus")
        }
        #expect(photos.contains { $0.latitude == nil }, "a photo without a place")
    }

    @Test func includesTheAwkwardCases() {
        #expect(photos.filter { $0.title.isEmpty }.count >= 3)
        #expect(photos.filter { $0.descriptionHTML.isEmpty }.count >= 3)
        #expect(photos.contains { $0.title.contains("<script>") })
        #expect(photos.contains { $0.descriptionHTML.contains("<a href=") })
        #expect(photos.contains { $0.descriptionHTML.contains("&amp;") })
        #expect(photos.contains { $0.descriptionHTML.contains("&lt;") })
        #expect(photos.contains { $0.title != $0.title.trimmingWhitespace }, "a title with stray spaces")
        #expect(photos.contains { $0.descriptionHTML.unicodeScalars.contains { $0.properties.isEmojiPresentation } })
        for script in ["フ", "斯", "ц", "ح", "ल", "달"] {
            #expect(photos.contains { ($0.title + $0.descriptionHTML).contains(script) }, "text in the script of \(script)")
        }
        #expect(photos.contains { $0.tags.contains { $0 != $0.lowercased() } }, "mixed-case tags")
        #expect(photos.contains { $0.spots.count == 2 }, "a photo on two spots")
        #expect(photos.contains { $0.originalSecret == nil }, "a photo whose original is hidden")
    }

    @Test func mostPhotosCarryTheCourseTags() {
        let spotTagged = photos.filter { $0.hasTag("cs193pspot") }.count
        let oriented = photos.filter { $0.hasTag("portrait") || $0.hasTag("landscape") }.count
        #expect(spotTagged * 10 >= photos.count * 9)
        #expect(spotTagged < photos.count, "but not all")
        #expect(oriented * 10 >= photos.count * 9)
        #expect(photos.filter { $0.isPortrait }.allSatisfy { !$0.hasTag("landscape") })
    }

    @Test func everySpotHasItsOwnPictureAndColours() {
        #expect(Set(catalogue.spots.map(\.tag)).count == catalogue.spots.count)
        #expect(Set(catalogue.spots.map(\.kind)).count >= 14)
        #expect(Set(catalogue.spots.map(\.sky)).count == catalogue.spots.count)
        let scenes = Set(photos.map(\.scene))
        #expect(scenes.count == photos.count, "each photo draws a different scene")
    }

    @Test func timelineAddsEditsAndRemoves() {
        #expect(catalogue.maxEpoch >= 3)
        let first = catalogue.photos(atEpoch: 0)
        let last = catalogue.photos(atEpoch: catalogue.maxEpoch)
        #expect(last.count > first.count)
        #expect(!Set(first.map(\.id)).isSubset(of: Set(last.map(\.id))), "a photo is removed")
        let edited = last.filter { photo in first.contains { $0.id == photo.id && $0.title != photo.title } }
        #expect(edited.count == 1)
        #expect(catalogue.photos(atEpoch: 99).map(\.id) == last.map(\.id))
        #expect(last.contains { $0.hasTag("windhover") } && !first.contains { $0.hasTag("windhover") })
    }
}
