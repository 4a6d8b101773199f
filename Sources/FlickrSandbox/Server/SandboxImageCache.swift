import Flickr
import Foundation

/// Rendered JPEGs per (photo, size), kept in memory; each rendered once, on first request,
/// however many requests arrive together.
actor SandboxImageCache {
    private struct Key: Hashable {
        var photoID: String
        var format: FlickrPhotoFormat
    }

    /// Where images are rendered: threads of their own, one a core at most. Rendering takes a
    /// core for up to seconds (an original is 4.3 megapixels); on the concurrency pool (one
    /// thread a core) it would wait behind, and then hold up, every other task of the process
    /// — a server's requests, a test's awaits — and a thread per image would let a page of new
    /// thumbnails crowd out everything else.
    private static let renderers: OperationQueue = {
        let queue = OperationQueue()
        queue.name = "FlickrSandbox renderers"
        queue.maxConcurrentOperationCount = max(1, ProcessInfo.processInfo.activeProcessorCount)
        return queue
    }()

    private var rendered: [Key: [UInt8]] = [:]
    private var rendering: [Key: Task<[UInt8], Never>] = [:]

    /// The JPEG of `photo` at `format`, rendering it if this is the first request.
    func jpeg(for photo: SandboxPhoto, format: FlickrPhotoFormat) async -> [UInt8] {
        let key = Key(photoID: photo.id, format: format)
        if let bytes = rendered[key] { return bytes }
        if let task = rendering[key] { return await task.value }
        let scene = photo.scene
        let size = format.pixelSize(forOriginalWidth: photo.originalSize.width, height: photo.originalSize.height)
        let quality = format == .original ? 90 : 85
        let task = Task {
            await withCheckedContinuation { (continuation: CheckedContinuation<[UInt8], Never>) in
                Self.renderers.addOperation {
                    continuation.resume(returning: PostcardRenderer.jpeg(scene, width: size.width, height: size.height, quality: quality))
                }
            }
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
