import Foundation
import Testing
@testable import PointPaint

@Suite("Chunk pipeline")
struct ChunkPipelineTests {
    private struct Stop: Error {}

    @Test("chunks arrive in order with their bytes", arguments: [0, 1, 2, 3, 50])
    func inOrder(count: Int) throws {
        var seen: [[UInt8]] = []
        try ChunkPipeline.run(count: count, capacity: 64, produce: { k, buffer in
            let n = k % 7 + 1
            for i in 0 ..< n { buffer.storeBytes(of: UInt8(truncatingIfNeeded: k &* 31 &+ i), toByteOffset: i, as: UInt8.self) }
            return n
        }, consume: { seen.append(Array($0)) })
        #expect(seen.count == count)
        for (k, bytes) in seen.enumerated() {
            #expect(bytes == (0 ..< k % 7 + 1).map { UInt8(truncatingIfNeeded: k &* 31 &+ $0) })
        }
    }

    @Test("an error while consuming stops the producer and is rethrown", arguments: [0, 1, 4, 19])
    func errorStops(at failing: Int) {
        let produced = Counter()
        var consumed = 0
        #expect(throws: Stop.self) {
            try ChunkPipeline.run(count: 20, capacity: 8, produce: { _, _ in
                produced.increment()
                return 1
            }, consume: { _ in
                if consumed == failing { throw Stop() }
                consumed += 1
            })
        }
        #expect(consumed == failing)
        // The producer ran at most the pipeline's depth ahead of the failure, then stopped.
        #expect(produced.value <= failing + 1 + ChunkPipeline.depth)
    }

    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func increment() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }
    }
}
