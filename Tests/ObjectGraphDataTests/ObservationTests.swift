import Foundation
import ObjectGraphData
import Observation
import Synchronization
import Testing

/// Models are `Observable`, as SwiftData's: what a view (or any observer) read is reported
/// when it is set through the model.
@Suite("ObjectGraphData observation")
struct ObservationTests {
    /// How many times an observation's onChange ran.
    final class Changes: Sendable {
        let count = Atomic<Int>(0)
        func note() { count.add(1, ordering: .relaxed) }
        var value: Int { count.load(ordering: .relaxed) }
    }

    @Test("Setting a property that was read reports a change; other properties do not")
    func attributes() throws {
        let context = ModelContext(try makeContainer())
        let photo = Photo(title: "Quad", views: 1)
        context.insert(photo)
        try context.save()
        let changes = Changes()
        let title = withObservationTracking { photo.title } onChange: { changes.note() }
        #expect(title == "Quad")
        photo.views = 2
        #expect(changes.value == 0)
        photo.title = "Oval"
        #expect(changes.value == 1)
        #expect(photo.title == "Oval")
    }

    @Test("Relationships are observed too, on a model before and after insertion")
    func relationships() throws {
        let photo = Photo(title: "Quad")
        let detached = Changes()
        withObservationTracking { _ = photo.caption } onChange: { detached.note() }
        photo.caption = "before insertion"
        #expect(detached.value == 1)

        let context = ModelContext(try makeContainer())
        context.insert(photo)
        let changes = Changes()
        withObservationTracking { _ = photo.tags.count } onChange: { changes.note() }
        photo.tags.append(Tag(name: "tower"))
        #expect(changes.value == 1)
        #expect(photo.tags.map(\.name) == ["tower"])
    }

    @Test("A model is Observable")
    func conformance() {
        let photo: Any = Photo(title: "Quad")
        #expect(photo is any Observable)
    }
}
