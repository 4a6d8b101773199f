import Flickr

/// The sandbox's bundled photos of Stanford, and how they change over time.
///
/// Epoch 0 is the catalogue as first seen; each later epoch applies one step of
/// ``timeline`` (new uploads, an edited title, a deleted photo), so refresh and live
/// updates can be shown and tested by stepping the sandbox's epoch.
package struct SandboxCatalogue: Sendable {
    /// Every spot, including ones that only later photos use.
    package let spots: [SandboxSpot]
    /// The photos at epoch 0, newest last.
    package let basePhotos: [SandboxPhoto]
    /// What changes at epochs 1, 2, …
    package let timeline: [SandboxTimelineStep]

    /// The Stanford catalogue written for SPoT.
    package static let stanford = SandboxCatalogue.makeStanford()

    /// The last epoch that changes anything.
    package var maxEpoch: Int { timeline.count }

    /// The photos as they are at `epoch` (clamped to 0...``maxEpoch``), in upload order.
    package func photos(atEpoch epoch: Int) -> [SandboxPhoto] {
        var photos = basePhotos
        for step in timeline.prefix(max(0, epoch)) {
            for event in step.events {
                switch event {
                case .add(let photo):
                    photos.append(photo)
                case .retitle(let id, let title):
                    if let index = photos.firstIndex(where: { $0.id == id }) { photos[index].title = title }
                case .remove(let id):
                    photos.removeAll { $0.id == id }
                }
            }
        }
        return photos
    }

    /// The spot whose tag is `tag`, compared without regard to case.
    package func spot(tag: String) -> SandboxSpot? {
        let wanted = tag.lowercased()
        return spots.first { $0.tag == wanted }
    }
}

/// One change to the catalogue.
package enum SandboxTimelineEvent: Sendable, Hashable {
    /// A photo is uploaded.
    case add(SandboxPhoto)
    /// The owner edits a photo's title.
    case retitle(id: String, title: String)
    /// The owner deletes a photo: it leaves searches and its images answer 404.
    case remove(id: String)
}

/// What happens when the sandbox's epoch moves forward by one.
package struct SandboxTimelineStep: Sendable, Hashable {
    /// A sentence for people, e.g. "Two photos uploaded at the Dish".
    package var summary: String
    package var events: [SandboxTimelineEvent]
}

// MARK: - Building the catalogue from hand-written entries

/// One hand-written photo, before ids and secrets are derived.
struct CatalogueEntry {
    var owner: SandboxPhotographer
    /// `yyyy-MM-dd HH:mm`, UTC.
    var uploaded: String
    var title: String
    var description: String
    /// Space-separated, as the owner typed them (case kept).
    var tags: String
    var portrait = false
    var geotagged = true
    var original = true
}

extension SandboxCatalogue {
    static func makeStanford() -> SandboxCatalogue {
        let spots = stanfordSpots
        var index = 0
        func build(_ entries: [CatalogueEntry]) -> [SandboxPhoto] {
            entries.map { entry in
                index += 1
                return makePhoto(entry, number: index, spots: spots)
            }
        }
        let base = build(photosOfQuadAndCentralCampus + photosOfArtsAndAthletics + photosOfOuterCampus)
            .sorted { $0.uploaded < $1.uploaded }
        let additions = build(timelineUploads)
        let timeline = makeTimeline(base: base, additions: additions)
        return SandboxCatalogue(spots: spots, basePhotos: base, timeline: timeline)
    }

    static func makePhoto(_ entry: CatalogueEntry, number: Int, spots: [SandboxSpot]) -> SandboxPhoto {
        let tags = entry.tags.split(separator: " ").map(String.init)
        let photoSpots = tags.compactMap { tag in spots.first { $0.tag == tag.lowercased() } }
        precondition(!photoSpots.isEmpty, "catalogue photo \"\(entry.title)\" names no spot in \(entry.tags)")
        let uploaded = epochSeconds(entry.uploaded)
        let id = String(40_000_000_000 + (uploaded - 1_300_000_000) * 9 + number)
        var random = SplitMix64(seed: fnv1a(id))
        func hexSecret() -> String {
            String(String(random.next(), radix: 16).suffix(10)).leftPadded(to: 10)
        }
        let secret = hexSecret()
        let originalSecret = hexSecret()
        let sizeSecrets: [FlickrPhotoFormat: String] = [.large1600: hexSecret(), .large2048: hexSecret()]
        let modern = uploaded >= 1_546_300_800  // 2019: every new upload is on server 65535
        let server = modern ? "65535" : String(1000 + random.next() % 7000)
        let farm = modern ? 66 : Int(1 + (Int(server)! / 1000) % 9)
        let place = photoSpots[0]
        let jitterLatitude = (Double(random.next() % 1000) / 1000 - 0.5) * 0.0012
        let jitterLongitude = (Double(random.next() % 1000) / 1000 - 0.5) * 0.0012
        return SandboxPhoto(
            id: id,
            owner: entry.owner,
            secret: secret,
            server: server,
            farm: farm,
            originalSecret: entry.original ? originalSecret : nil,
            originalFormat: entry.original ? "jpg" : nil,
            sizeSecrets: sizeSecrets,
            title: entry.title,
            descriptionHTML: entry.description,
            tags: tags,
            uploaded: uploaded,
            latitude: entry.geotagged ? (place.latitude + jitterLatitude).rounded(toPlaces: 6) : nil,
            longitude: entry.geotagged ? (place.longitude + jitterLongitude).rounded(toPlaces: 6) : nil,
            spots: photoSpots,
            seed: random.next(),
            isPortrait: entry.portrait
        )
    }

    /// Seconds since 1970 of `yyyy-MM-dd HH:mm` in UTC.
    static func epochSeconds(_ text: String) -> Int {
        let numbers = text.split(whereSeparator: { $0 == "-" || $0 == " " || $0 == ":" }).map { Int($0)! }
        let (year, month, day, hour, minute) = (numbers[0], numbers[1], numbers[2], numbers[3], numbers[4])
        // Days from civil (Howard Hinnant's algorithm).
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return days * 86_400 + hour * 3600 + minute * 60
    }

    static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return hash
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}

extension Double {
    fileprivate func rounded(toPlaces places: Int) -> Double {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        return (self * scale).rounded() / scale
    }
}
