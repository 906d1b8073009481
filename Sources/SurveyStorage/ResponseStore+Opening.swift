public import Foundation
public import TwoWayBinding
import Synchronization

extension ResponseStore {
    /// The database opened on a thread of its own while the caller goes on,
    /// and handed over as a store when it is wanted.
    ///
    /// Opening checks every page of the database (`PRAGMA quick_check`):
    /// 50–140 ms at 100,000 responses on two cores, which a window built
    /// meanwhile need not wait for, nor its first frame. What the opening
    /// found (a database set aside, one from a newer version, an error)
    /// reaches the store or the caller as it would from
    /// `init(directory:events:)`.
    public final class Opening: Sendable {
        private let outcome = Mutex<Result<Opened, any Error>?>(nil)
        private let finished = DispatchSemaphore(value: 0)
        private let taken = Atomic(false)

        /// Starts opening (or creating) the database in `directory`.
        public init(directory: URL) {
            DispatchQueue.global(qos: .userInitiated).async { [self] in
                let result = Result { try ResponseStore.open(directory: directory) }
                // Before any window has the store, and so before it can take a file.
                if case .success(let opened) = result, !opened.isReadOnly {
                    ResponseStore.removeUnusedAttachments(directory: directory, queue: opened.queue)
                }
                outcome.withLock { $0 = result }
                finished.signal()
            }
        }

        /// Whether the opening has ended: `store(events:)` would not wait.
        public var isFinished: Bool { outcome.withLock { $0 != nil } }

        /// Waits until the opening has ended; for a thread that may wait
        /// (not a window's).
        public func waitUntilFinished() {
            finished.wait()
            // Each waiter passes the signal on, `store(events:)` included.
            finished.signal()
        }

        /// The store, once the database is open: waits for the opening to
        /// end, then throws what `init(directory:events:)` would have thrown.
        /// An opening makes one store; a second call is a programming error.
        public func store(events: EventBus? = nil) throws -> ResponseStore {
            let (first, _) = taken.compareExchange(expected: false, desired: true, ordering: .relaxed)
            precondition(first, "a ResponseStore.Opening hands over its store once")
            finished.wait()
            let result = outcome.withLock { $0 }!
            return ResponseStore(try result.get(), events: events)
        }
    }
}
