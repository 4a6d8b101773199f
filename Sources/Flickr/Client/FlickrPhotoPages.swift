/// The pages of a photo query, fetched lazily as the sequence is iterated.
///
/// Starts at page 1 and follows the `pages` count Flickr reports, stopping after the last
/// page or at the first empty page (Flickr's count can shrink while paging). Iterating again
/// fetches again.
public struct FlickrPhotoPages: AsyncSequence, Sendable {
    /// Each element is one page.
    public typealias Element = FlickrPhotoPage

    let client: FlickrClient
    let query: FlickrPhotoQuery
    let perPage: Int

    /// Fetches the pages in order, one request per page.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let client: FlickrClient
        let query: FlickrPhotoQuery
        let perPage: Int
        var nextPage = 1
        var finished = false

        /// The next page, or `nil` after the last one.
        /// - Throws: ``FlickrError`` from the request; the sequence ends after an error.
        public mutating func next() async throws -> FlickrPhotoPage? {
            guard !finished else { return nil }
            let page: FlickrPhotoPage
            do {
                page = try await client.photos(query, page: nextPage, perPage: perPage)
            } catch {
                finished = true
                throw error
            }
            if page.photos.isEmpty && nextPage > 1 {
                finished = true
                return nil
            }
            nextPage += 1
            finished = nextPage > page.pages || page.photos.isEmpty
            return page
        }
    }

    /// Starts fetching from page 1.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(client: client, query: query, perPage: perPage)
    }
}
