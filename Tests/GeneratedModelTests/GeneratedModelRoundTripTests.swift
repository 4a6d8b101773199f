import Foundation
import ObjectGraph
import TestSupport
import Testing

/// A container on a fresh SQLite file for `model`.
private func container(_ model: ManagedObjectModel) throws -> PersistentContainer {
    let url = TestDirectory.make("objectgraph-generated")
        .appendingPathComponent("Generated.sqlite")
    let container = PersistentContainer(name: "Generated", managedObjectModel: model)
    container.persistentStoreDescriptions = [PersistentStoreDescription(url: url)]
    var loadError: (any Error)?
    container.loadPersistentStores { _, error in loadError = error }
    if let loadError { throw loadError }
    return container
}

@Suite("objectgraph-gen: generated classes")
struct GeneratedModelRoundTripTests {
    @Test("the generated Library classes save and fetch typed values")
    func library() throws {
        let container = try container(LibraryModel.make())
        let writer = container.newBackgroundContext()
        let authorID = UUID()
        try writer.performAndWait {
            let author = Author(context: writer)
            author.id = authorID
            author.name = "Wallace Stegner"
            author.website = URL(string: "https://example.org/stegner")
            let fiction = Tag(context: writer)
            fiction.name = "fiction"
            let book = Book(context: writer)
            #expect(book.title == "Untitled")
            #expect(book.pageCount == 1)
            #expect(book.price == Decimal(string: "9.99"))
            book.title = "Angle of Repose"
            book.isbn = "9780143039952"
            book.pageCount = 569
            book.rating = 4.5
            book.weight = 0.75
            book.coverColor = Data([7])
            book.author = author
            book.tags = [fiction]
            let loan = Loan(context: writer)
            loan.due = Date(timeIntervalSinceReferenceDate: 800_000_000)
            loan.book = book
            let publisher = Publisher(context: writer)
            publisher.name = "Penguin"
            publisher.founded = 1935
            book.publisher = publisher
            #expect(author.books == [book])
            #expect(fiction.books == [book])
            try writer.save()
        }
        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let request = Book.fetchRequest()
            request.predicate = FetchPredicate(format: "author.id == %@", authorID)
            let book = try #require(try reader.fetch(request).first)
            #expect(book.title == "Angle of Repose")
            #expect(book.pageCount == 569)
            #expect(book.rating == 4.5)
            #expect(book.weight == 0.75)
            #expect(book.coverColor as? Data == Data([7]))
            #expect(book.author?.name == "Wallace Stegner")
            #expect(book.author?.books.first === book)
            #expect(book.tags.map(\.name) == ["fiction"])
            #expect(book.loans.first?.due == Date(timeIntervalSinceReferenceDate: 800_000_000))
            #expect(book.publisher?.founded == 1935)
            #expect(book.publisher?.revenue == 0)
            #expect(book.isbnDigits == 13)  // from the edited human file
        }
    }

    @Test("the generated Media classes keep inheritance and ordered relationships")
    func media() throws {
        let container = try container(MediaModel.make())
        let writer = container.newBackgroundContext()
        try writer.performAndWait {
            let album = Album(context: writer)
            let live = LivePhoto(context: writer)
            live.identifier = UUID()
            live.width = 4032
            live.motionData = Data([1, 2])
            let video = Video(context: writer)
            video.identifier = UUID()
            video.duration = 12.5
            let photo = Photo(context: writer)
            photo.identifier = UUID()
            photo.caption = "Hoover Tower"
            album.items = [video, photo, live]
            try writer.save()
        }
        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let album = try #require(try reader.fetch(Album.fetchRequest()).first)
            #expect(album.name == "New Album")
            #expect(album.items.count == 3)
            #expect(album.items[0] is Video && album.items[1] is Photo && album.items[2] is LivePhoto)
            #expect((album.items[0] as? Video)?.duration == 12.5)
            #expect((album.items[0] as? Video)?.hasAudio == true)
            #expect((album.items[2] as? LivePhoto)?.width == 4032)
            #expect(album.items[1].caption == "Hoover Tower")
            #expect(album.items[1].albums == [album])
            let photos = try reader.fetch(Photo.fetchRequest())
            #expect(photos.count == 2)  // the live photo is a photo
            #expect(try reader.fetch(MediaItem.fetchRequest()).count == 3)
        }
    }
}
