public import Flickr
import Foundation

/// How Flickr's photos become SPoT's: which tags are spots, titles, subtitles and sections.
public struct ImportRules: Sendable, Hashable {
    /// Tags that never become spots: the search tag itself and orientation tags.
    public static let defaultExcludedTags: Set<String> = ["cs193pspot", "portrait", "landscape"]
    /// The title of a photo with neither a title nor a description.
    public static let unknownTitle = "Unknown"
    /// The section of a title that does not start with a letter A–Z (after folding).
    public static let otherSection = "#"
    /// The "All" section of a photo with no spot of its own.
    public static let noSpotTitle = "Other"

    /// Tags skipped, lower-cased.
    public var excludedTags: Set<String>

    /// Rules excluding `excludedTags` (compared lower-cased).
    public init(excludedTags: Set<String> = defaultExcludedTags) {
        self.excludedTags = Set(excludedTags.map { $0.lowercased() })
    }

    /// The photo's spots: its tags lower-cased, minus the excluded ones, each once, in
    /// Flickr's order (the first is the photo's section in "All").
    public func spotNames(of tags: [String]) -> [String] {
        var seen: Set<String> = []
        var names: [String] = []
        for tag in tags {
            let name = tag.lowercased().trimmingCharacters(in: .whitespacesAndNewlines)
            guard !name.isEmpty, !excludedTags.contains(name), seen.insert(name).inserted else { continue }
            names.append(name)
        }
        return names
    }

    /// A spot's name for people: the tag capitalized ("hoovertower" → "Hoovertower").
    public func displayName(ofSpot name: String) -> String {
        name.capitalized
    }

    /// The title: Flickr's, else the description's first line, else "Unknown".
    public func title(of photo: FlickrPhoto) -> String {
        let title = PlainText.collapseWhitespace(photo.title)
        if !title.isEmpty { return title }
        let line = PlainText.firstLine(ofHTML: photo.descriptionHTML ?? "")
        return line.isEmpty ? Self.unknownTitle : line
    }

    /// The subtitle: the description as plain text.
    public func subtitle(of photo: FlickrPhoto) -> String {
        PlainText.fromHTML(photo.descriptionHTML ?? "")
    }

    /// The alphabetical section of `title`: its first letter with accents folded away,
    /// upper-cased ("É" → "E"); `#` for anything but A–Z.
    public func sectionTitle(ofTitle title: String) -> String {
        guard let first = title.first else { return Self.otherSection }
        let folded = String(first).folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: nil).uppercased()
        guard folded.count == 1, let scalar = folded.unicodeScalars.first, folded.unicodeScalars.count == 1,
            ("A"..."Z").contains(scalar)
        else { return Self.otherSection }
        return folded
    }
}
