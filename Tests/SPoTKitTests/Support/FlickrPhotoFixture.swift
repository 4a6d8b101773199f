import Flickr
import FlickrSandbox
import Foundation

/// Sandbox catalogue entries as the Flickr client decodes them.
enum FlickrPhotoFixture {
    static func flickrPhoto(_ photo: SandboxPhoto) -> FlickrPhoto {
        FlickrPhoto(
            id: photo.id,
            owner: photo.owner.nsid,
            secret: photo.secret,
            server: photo.server,
            farm: photo.farm,
            title: photo.title,
            descriptionHTML: photo.descriptionHTML,
            ownerName: photo.owner.name,
            tags: photo.tags,
            uploadDate: Date(timeIntervalSince1970: Double(photo.uploaded)),
            originalSecret: photo.originalSecret,
            originalFormat: photo.originalFormat
        )
    }
}

extension SandboxCatalogue {
    /// The photos SPoT imports at `epoch`: those tagged `cs193pspot`.
    func spotPhotos(atEpoch epoch: Int) -> [SandboxPhoto] {
        photos(atEpoch: epoch).filter { $0.hasTag(FlickrPhotoQuery.spotTag) }
    }
}

extension SandboxCatalogue {
    /// The ids of the photos SPoT imports at epoch 0.
    static var stanfordSpotIDs: [String] { stanford.spotPhotos(atEpoch: 0).map(\.id) }
}
