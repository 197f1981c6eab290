import Foundation
import Testing
@_spi(Benchmarks) @testable import PointPaint

/// PointPaint's LZFSE writer, raw blocks only: streams its decoder reads back, and exactly the
/// bytes of the fixture Apple's reference decoder reads (`Tests/python/test_lzfse.py`).
@Suite struct LZFSEEncodeTests {
    /// The block magics of a stream of raw blocks, with each raw block's size.
    static func blocks(_ stream: [UInt8]) -> [String] {
        var out: [String] = []
        var offset = 0
        while offset + 4 <= stream.count {
            let magic = String(decoding: stream[offset ..< offset + 4], as: UTF8.self)
            guard magic == "bvx-" else {
                out.append(magic)
                offset += 4
                continue
            }
            let size = stream[offset + 4 ..< offset + 8].reversed().reduce(0) { $0 << 8 | Int($1) }
            out.append("bvx- \(size)")
            offset += 8 + size
        }
        return out
    }

    @Test func theFixtureIsWhatTheEncoderWrites() throws {
        let input = (0 ..< 1000).map { UInt8((37 * $0 + 11) % 256) }
        let stream = LZFSE.encodeRaw(input, blockSize: 384)
        #expect(stream == (try FileBytes.read(RepositoryFile.path("Tests/Fixtures/LZFSE/raw/raw-1000.lzfse"))))
        #expect(Self.blocks(stream) == ["bvx- 384", "bvx- 384", "bvx- 232", "bvx$"])
    }

    @Test(arguments: [0, 1, 383, 384, 385, 1152, 5000])
    func streamsDecodeToTheirInput(count: Int) throws {
        var random = SplitMix64(seed: UInt64(count))
        let input = (0 ..< count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let stream = LZFSE.encodeRaw(input, blockSize: 384)
        #expect(Self.blocks(stream).count == (count + 383) / 384 + 1 && Self.blocks(stream).last == "bvx$")
        #expect(stream.count == count + 8 * ((count + 383) / 384) + 4)
        #expect(try LZFSE.decode(stream, expectedSize: count, maximumSize: count) == input)
        // One block unless told otherwise.
        let whole = LZFSE.encodeRaw(input)
        #expect(Self.blocks(whole) == (count == 0 ? ["bvx$"] : ["bvx- \(count)", "bvx$"]))
        #expect(try LZFSE.decode(whole, maximumSize: count) == input)
    }
}
