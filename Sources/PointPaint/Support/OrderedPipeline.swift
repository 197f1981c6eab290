import Foundation

/// The package's one mechanism for ordered parallel work: items are pulled in order from
/// `input`, transformed by any of `workers` threads or by the thread that takes the results, and
/// handed out by `next()` in the order they were pulled, so what a caller sees does not depend
/// on the number of threads or on which thread did what.
///
/// - Back-pressure: at most `window` items are pulled and not yet taken; pulling waits for the
///   caller to take one. `window` bounds the memory in flight.
/// - Pulling is serial and in order, one thread at a time: whichever finds no item waiting (a
///   worker, or the caller in `next()`), so `input` may be a stateful reader (a video decoder
///   running ahead of its caller, with `transform` the identity).
/// - Errors keep their place: the error of pulling or transforming item *k* is thrown by the
///   `next()` that would have returned item *k*, after the items before it; nothing after it is
///   handed out, and `input` is not called again.
/// - `cancel()`, or releasing the pipeline, stops the workers at their next item; `deinit`
///   waits for them and then drops `input`, `transform` and what they made, so nothing they
///   hold outlives the pipeline (not even on a worker thread still unwinding).
///
/// Replay and paint run a capture's frames through one (`FramePass`), frame loading through
/// another (`CaptureSource.frames(_:threads:)`), and a Stray video's decoder runs ahead through a
/// third with no transform.
final class OrderedPipeline<Input, Output>: @unchecked Sendable {
    /// Returns the next item, or nil after the last; called serially, in order.
    typealias Pull = () throws -> Input?
    /// Turns an item into its output, on any thread.
    typealias Transform = (Input) throws -> Output

    /// The shared state, which the workers hold (the pipeline itself they do not, so that
    /// releasing it stops them).
    private let core: Core

    /// Starts `workers` threads (none: the caller does all the work in `next()`) named `name`.
    /// - Parameter window: the most items pulled and not yet taken (at least 1).
    init(workers: Int, window: Int, name: String, input: @escaping Pull, transform: @escaping Transform) {
        precondition(window > 0, "a pipeline needs room for an item")
        let count = max(0, workers)
        let core = Core(window: window, workers: count, input: input, transform: transform)
        self.core = core
        for n in 0 ..< count {
            let thread = Thread { core.work() }
            thread.name = count == 1 ? name : "\(name) \(n + 1)"
            thread.qualityOfService = .userInitiated
            thread.start()
        }
    }

    /// A pipeline with no transform: `input`, run ahead of the caller by `workers` threads.
    convenience init(workers: Int, window: Int, name: String, input: @escaping Pull) where Input == Output {
        self.init(workers: workers, window: window, name: name, input: input, transform: { $0 })
    }

    deinit { core.cancelAndWait() }

    /// The next output in order; nil after the last (or after an error was thrown, or once
    /// cancelled). The calling thread pulls and transforms items while the one it needs is not
    /// ready.
    /// - Throws: the error of pulling or transforming this position's item.
    func next() throws -> Output? { try core.next() }

    /// Tells the workers to stop at their next item and drops what waits; `next()` then returns
    /// nil.
    func cancel() { core.cancel() }

    /// Everything the threads share, under `condition`'s lock.
    private final class Core: @unchecked Sendable {
        private let condition = NSCondition()
        /// The caller's closures; dropped once the workers have ended (`cancelAndWait`), so
        /// what they hold goes with the pipeline, not with a worker thread still unwinding.
        private var input: Pull?
        private var transform: Transform?
        private let window: Int
        /// Items pulled and waiting for a thread to transform them (or the error of pulling
        /// one), by position.
        private var waiting: [Int: Result<Input, any Error>] = [:]
        /// Outputs (or their errors) waiting to be taken, by position.
        private var results: [Int: Result<Output, any Error>] = [:]
        /// Positions: the next to pull, the next to transform, the next to hand out.
        private var pulled = 0, started = 0, taken = 0
        /// Whether a thread is pulling now.
        private var pulling = false
        /// The position after the last item: set when `input` returns nil or throws.
        private var end: Int?
        private var cancelled = false
        /// Workers not yet ended.
        private var running: Int

        init(window: Int, workers: Int, input: @escaping Pull, transform: @escaping Transform) {
            self.window = window
            running = workers
            self.input = input
            self.transform = transform
        }

        func next() throws -> Output? {
            condition.lock()
            while true {
                if cancelled || (end.map { taken >= $0 } ?? false) {
                    condition.unlock()
                    return nil
                }
                if let result = results.removeValue(forKey: taken) {
                    taken += 1
                    condition.broadcast()
                    condition.unlock()
                    do {
                        return try result.get()
                    } catch {
                        cancel()
                        throw error
                    }
                }
                if !step() { condition.wait() }
            }
        }

        func cancel() {
            condition.withLock {
                cancelled = true
                waiting.removeAll()
                results.removeAll()
                condition.broadcast()
            }
        }

        /// Cancels, then waits for the workers to end (each finishes the item in its hands).
        func cancelAndWait() {
            cancel()
            condition.withLock {
                while running > 0 { condition.wait() }
                // No thread is in `step` now (the caller's is releasing the pipeline).
                input = nil
                transform = nil
                results.removeAll()
            }
        }

        /// A worker: pulls and transforms items until the input ends or the pipeline is
        /// cancelled.
        func work() {
            condition.lock()
            while !cancelled, !(end.map { started >= $0 } ?? false) {
                if !step() { condition.wait() }
            }
            running -= 1
            condition.broadcast()
            condition.unlock()
        }

        /// One piece of work, under `condition`'s lock (released while working): transforms the
        /// earliest item waiting, or else pulls the next one when the window has room and no
        /// other thread is pulling. False when there was nothing to do.
        private func step() -> Bool {
            if let item = waiting.removeValue(forKey: started), let transform {
                let position = started
                started += 1
                condition.unlock()
                let result = Result { try transform(item.get()) }
                condition.lock()
                if !cancelled { results[position] = result }
                condition.broadcast()
                return true
            }
            guard !pulling, end == nil, !cancelled, pulled - taken < window, let input else { return false }
            pulling = true
            let position = pulled
            condition.unlock()
            let item = Result<Input?, any Error> { try input() }
            condition.lock()
            pulling = false
            switch item {
            case .success(let value?):
                pulled += 1
                if !cancelled { waiting[position] = .success(value) }
            case .success(nil):
                end = position
            case .failure(let error):
                // The error takes the item's place; nothing is pulled after it.
                pulled += 1
                end = pulled
                if !cancelled { waiting[position] = .failure(error) }
            }
            condition.broadcast()
            return true
        }
    }
}
