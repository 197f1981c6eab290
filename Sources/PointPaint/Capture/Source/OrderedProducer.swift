import Foundation

/// Runs a producer on a thread of its own that hands items, in order, to whoever calls `next()`,
/// keeping at most `capacity` items waiting: the producer blocks when that many are ready and
/// the consumer when none is. A video decoder runs ahead of the replay this way, a few frames
/// at most.
///
/// The producer's error is thrown by `next()` after the items produced before it. `cancel()`
/// makes the producer's next `emit` return false, so it stops early, and frees what is waiting;
/// the thread holds the object until the producer returns.
final class OrderedProducer<Element: Sendable>: @unchecked Sendable {
    /// Hands an item to the consumer, waiting while `capacity` are ready; false once the
    /// consumer has gone, and the producer should stop.
    typealias Emit = (Element) -> Bool

    private let condition = NSCondition()
    private let capacity: Int
    /// Items ready, oldest first (a few: taking the first moves the others).
    private var ready: [Element] = []
    private var failure: (any Error)?
    private var finished = false
    private var cancelled = false

    /// Starts `produce` on a new thread named `name`.
    init(capacity: Int, name: String, _ produce: @escaping @Sendable (Emit) throws -> Void) {
        precondition(capacity > 0, "a producer needs room for an item")
        self.capacity = capacity
        let thread = Thread { [self] in
            do {
                try produce(emit)
                finish(nil)
            } catch {
                finish(error)
            }
        }
        thread.name = name
        thread.qualityOfService = .userInitiated
        thread.start()
    }

    /// The next item; nil after the last.
    /// - Throws: the producer's error, once the items before it have been taken; after that,
    ///   `next()` returns nil.
    func next() throws -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while ready.isEmpty && !finished { condition.wait() }
        if !ready.isEmpty {
            condition.broadcast()
            return ready.removeFirst()
        }
        if let failure {
            self.failure = nil
            throw failure
        }
        return nil
    }

    /// Tells the producer to stop at its next item and drops what waits.
    func cancel() {
        condition.lock()
        cancelled = true
        ready.removeAll()
        condition.broadcast()
        condition.unlock()
    }

    private func emit(_ item: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while ready.count >= capacity && !cancelled { condition.wait() }
        guard !cancelled else { return false }
        ready.append(item)
        condition.broadcast()
        return true
    }

    private func finish(_ error: (any Error)?) {
        condition.lock()
        finished = true
        failure = error
        condition.broadcast()
        condition.unlock()
    }
}
