import Flickr

/// Rendered JPEGs per (photo, size), kept in memory; each rendered once, on first request,
/// however many requests arrive together.
actor SandboxImageCache {
    private struct Key: Hashable {
        var photoID: String
        var format: FlickrPhotoFormat
    }

    private var rendered: [Key: [UInt8]] = [:]
    private var rendering: [Key: Task<[UInt8], Never>] = [:]

    /// The JPEG of `photo` at `format`, rendering it if this is the first request.
    func jpeg(for photo: SandboxPhoto, format: FlickrPhotoFormat) async -> [UInt8] {
        let key = Key(photoID: photo.id, format: format)
        if let bytes = rendered[key] { return bytes }
        if let task = rendering[key] { return await task.value }
        let scene = photo.scene
        let size = format.pixelSize(forOriginalWidth: photo.originalSize.width, height: photo.originalSize.height)
        let task = Task.detached(priority: .medium) {
            PostcardRenderer.jpeg(scene, width: size.width, height: size.height, quality: format == .original ? 90 : 85)
        }
        rendering[key] = task
        let bytes = await task.value
        rendered[key] = bytes
        rendering[key] = nil
        return bytes
    }

    /// How many images are held.
    var count: Int { rendered.count }
}
