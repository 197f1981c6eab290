import Foundation
import Testing
@testable import PointPaint

/// `OrderedPipeline`: outputs come in input order whatever the workers, errors keep their place,
/// the window bounds what is pulled ahead, and a released pipeline stops its workers.
@Suite struct OrderedPipelineTests {
    struct Failure: Error, Equatable { let at: Int }

    /// Counts what the pipeline pulled and what the caller took, to check the window; every
    /// access under its lock (pulls and takes run on different threads).
    final class Ledger: @unchecked Sendable {
        private let lock = NSLock()
        private var pulled = 0, taken = 0, widest = 0
        func pull() -> Int {
            lock.withLock {
                pulled += 1
                widest = max(widest, pulled - taken)
                return pulled - 1
            }
        }
        func take() { lock.withLock { taken += 1 } }
        var pulls: Int { lock.withLock { pulled } }
        var widestGap: Int { lock.withLock { widest } }
    }

    @Test("outputs in input order, the window never passed, for any number of workers", arguments: [0, 1, 3, 7])
    func order(workers: Int) throws {
        let ledger = Ledger()
        let pipeline = OrderedPipeline<Int, Int>(workers: workers, window: 4, name: "test", input: {
            let n = ledger.pull()
            return n < 500 ? n : nil
        }, transform: { n in
            // Uneven work, so that later items often finish first.
            var x = UInt64(n)
            for _ in 0 ..< (n % 7) * 2000 { x = x &* 6364136223846793005 &+ 1442695040888963407 }
            return n * 2 + Int(x & 0)
        })
        var seen: [Int] = []
        while let value = try pipeline.next() {
            ledger.take()
            seen.append(value)
        }
        #expect(seen == (0 ..< 500).map { $0 * 2 })
        // Each pull is counted before its item is taken: the end's nil pull may pass by one.
        #expect(ledger.widestGap <= 4 + 1)
        #expect(try pipeline.next() == nil)
    }

    @Test("an error pulling or transforming item k is thrown after the items before it, and nothing after", arguments: [0, 2, 5])
    func errorsKeepTheirPlace(workers: Int) throws {
        for failing in [0, 3, 17] {
            for inTransform in [false, true] {
                var next = 0
                let pipeline = OrderedPipeline<Int, Int>(workers: workers, window: 3, name: "test", input: {
                    defer { next += 1 }
                    if !inTransform, next == failing { throw Failure(at: next) }
                    return next < 40 ? next : nil
                }, transform: { n in
                    if inTransform, n == failing { throw Failure(at: n) }
                    return n
                })
                var seen: [Int] = []
                let error = #expect(throws: Failure.self) {
                    while let value = try pipeline.next() { seen.append(value) }
                }
                #expect(error == Failure(at: failing))
                #expect(seen == Array(0 ..< failing), "workers \(workers), failing \(failing), in transform \(inTransform)")
                #expect(try pipeline.next() == nil, "nothing after the error")
            }
        }
    }

    @Test("releasing a pipeline part-way stops its workers, which pull no further than the window")
    func releaseStops() throws {
        let ledger = Ledger()
        /// Held only by the pipeline's closures, so it lives exactly as long as they do.
        final class Sentinel: Sendable {}
        weak var watched: Sentinel?
        do {
            let sentinel = Sentinel()
            watched = sentinel
            let pipeline = OrderedPipeline<Int, Int>(workers: 3, window: 5, name: "test",
                                                     input: { withExtendedLifetime(sentinel) { ledger.pull() } }, transform: { $0 })
            for expected in 0 ..< 10 {
                #expect(try pipeline.next() == expected)
                ledger.take()
            }
        }
        // deinit stopped the workers and waited for them: nothing holds the closures any more
        // (a worker still running would), and they pulled no further than the window ahead.
        #expect(watched == nil, "a worker outlived the pipeline")
        let pulls = ledger.pulls
        #expect(pulls >= 10 && pulls <= 15)
    }

    @Test("with no transform, a stateful input runs ahead of the caller in order")
    func readAhead() throws {
        var state = 0
        let pipeline = OrderedPipeline<Int, Int>(workers: 1, window: 3, name: "test") {
            state += 1
            return state <= 100 ? state : nil
        }
        var seen: [Int] = []
        while let value = try pipeline.next() { seen.append(value) }
        #expect(seen == Array(1 ... 100))
    }
}
