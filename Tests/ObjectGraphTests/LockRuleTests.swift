import Dispatch
import Foundation
import Testing

@testable import ObjectGraph

/// ObjectGraph calls nothing out while it holds a lock (ARCHITECTURE.md, the lock rule): what a
/// lock guards is taken out under it and let go after, so code that runs when it goes — a
/// `deinit`, a cancellation — may take the same lock again.
@Suite("The lock rule: nothing called out under a lock")
struct LockRuleTests {
    /// Runs `body` on a thread of its own; `false` when it has not returned within `seconds`
    /// (a deadlock: the thread is left behind).
    private static func returns(within seconds: Double, _ body: @escaping @Sendable () -> Void) -> Bool {
        let done = DispatchSemaphore(value: 0)
        Thread {
            body()
            done.signal()
        }.start()
        return done.wait(timeout: .now() + seconds) == .success
    }

    @Test("cancelling an observer whose closure holds the last reference to another observation of the same context returns")
    func observerReleasedOutsideTheLock() {
        let returned = Self.returns(within: 10) {
            let context = ManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            var outer: ContextObservation?
            do {
                let inner = context.addWillSaveObserver {}
                outer = context.addWillSaveObserver { withExtendedLifetime(inner) {} }
            }
            // Removing `outer` drops its closure, and with it `inner`, whose deinit removes
            // `inner` from the same registry: under the registry's lock, that waited for
            // itself for ever.
            outer?.cancel()
            outer = nil
        }
        #expect(returned, "cancelling the observation deadlocked on the context's observer lock")
    }

    @Test("replacing a registered value transformer whose deinit reads the registry returns")
    func transformerReleasedOutsideTheLock() {
        let returned = Self.returns(within: 10) {
            let name = "LockRuleTests.\(UUID().uuidString)"
            ValueTransformerRegistry.setValueTransformer(ReadingOnDeinit(name: name), forName: name)
            ValueTransformerRegistry.setValueTransformer(nil, forName: name)
        }
        #expect(returned, "replacing the transformer deadlocked on the registry's lock")
    }
}

/// A transformer that looks itself up in the registry when it goes away.
private final class ReadingOnDeinit: AttributeValueTransformer {
    let name: String
    init(name: String) { self.name = name }
    deinit { _ = ValueTransformerRegistry.valueTransformer(forName: name) }
    func transformedValue(_ value: Any) throws -> Data { Data() }
    func reverseTransformedValue(_ data: Data) throws -> Any { data }
}
