import Foundation
import Testing
@testable import PointPaint

/// One vertex a point as a painting leaves it (`PointVertices`): the file streamed from it equals
/// the one written from built arrays, and a cloud's 8-bit colours are kept as codes that give the
/// same floats back.
@Suite struct PaintResultPointsTests {
    /// A cloud of `n` points, with 8-bit colours, float colours (one outside 0…1) or none.
    static func cloud(_ n: Int, colours: String) throws -> PaintCloud {
        let positions = (0 ..< n).map { SIMD3<Float>(Float($0) * 0.01, Float($0 % 7), 1) }
        let colors: [SIMD3<Float>]? = switch colours {
        case "8-bit": (0 ..< n).map { SIMD3(UInt8($0 % 256).unitChannel, UInt8(($0 * 7) % 256).unitChannel, UInt8(255).unitChannel) }
        case "float": (0 ..< n).map { $0 == 3 ? SIMD3(1.25, 0.3, -0.0) : SIMD3(0.3, Float($0) / Float(n), 0.7) }
        default: nil
        }
        return try PaintCloud(path: "c", positions: positions, colors: colors)
    }

    /// Paints every third point from two frames (one of them outside sRGB when `wide`).
    static func painted(_ cloud: PaintCloud, keep: Bool, spread: Bool, wide: Bool) -> PaintResult {
        var accumulator = PaintAccumulator(count: cloud.count, accumulation: .mean, voxelSize: nil, spread: spread)
        let seen = (0 ..< UInt32(cloud.count)).filter { $0 % 3 == 0 }
        for frame in 0 ..< 2 {
            let colors = seen.map { p in
                SIMD3<Float>(Float(p % 100) / 100, Float(frame) * 0.25, wide && p == 6 ? 1.5 : 0.125)
            }
            accumulator.add(points: seen, colors: colors, frame: frame, cloud: cloud)
        }
        var statistics = CloudPainter.Statistics()
        statistics.seen = accumulator.seenCount
        statistics.unseen = cloud.count - statistics.seen
        return accumulator.result(cloud: cloud, unseen: keep ? .keep : .drop, statistics: statistics)
    }

    @Test(arguments: ["8-bit", "float", "none"])
    func streamedFromThePointsEqualsTheBuiltArrays(colours: String) throws {
        let dir = TemporaryDirectory()
        let cloud = try Self.cloud(PaintResult.writeChunk + 777, colours: colours)
        for (keep, spread, wide) in [(true, false, false), (true, true, true), (false, true, false), (false, false, true)] {
            let result = Self.painted(cloud, keep: keep, spread: spread, wide: wide)
            guard case .points = result.vertices else {
                Issue.record("expected the points as painted")
                return
            }
            let built = PaintResult(cloud: result.cloud, painted: result.painted, statistics: result.statistics, colourSD: result.colourSD)
            #expect(result.vertexCount == built.cloud.count && result.unpaintedCount == built.unpaintedCount)
            #expect(built.cloud.count == (keep ? cloud.count : (cloud.count + 2) / 3))
            #expect(result.unpaintedCount == (keep && colours == "none" ? cloud.count - (cloud.count + 2) / 3 : 0))
            for quality in [false, true] {
                let a = dir.file("points.ply"), b = dir.file("built.ply")
                try result.writePLY(to: a, qualityProperties: quality)
                try built.writePLY(to: b, qualityProperties: quality)
                let streamed = try #require(FileManager.default.contents(atPath: a))
                #expect(streamed == FileManager.default.contents(atPath: b), "\(colours), keep \(keep), spread \(spread), wide \(wide), quality \(quality)")
                #expect(streamed == Data(PLYWriter.encode(result.plyFile(qualityProperties: quality))))
            }
        }
    }

    @Test func eightBitColoursAreKeptAsCodesAndGivenBackExactly() throws {
        let bytes = try Self.cloud(600, colours: "8-bit")
        guard case .codes(let codes) = bytes.ownColors else {
            Issue.record("expected 8-bit codes")
            return
        }
        #expect(codes.count == 3 * 600)
        let expected: [SIMD3<Float>] = (0 ..< 600).map { i in
            let r = UInt8(i % 256).unitChannel, g = UInt8((i * 7) % 256).unitChannel
            return SIMD3<Float>(r, g, 1)
        }
        #expect(bytes.colors == expected && bytes.color(at: 599) == expected[599] && bytes.hasColors)
        let floats = try Self.cloud(600, colours: "float")
        guard case .floats = floats.ownColors else {
            Issue.record("expected floats")
            return
        }
        #expect(floats.color(at: 3)?.x == 1.25 && floats.color(at: 3)?.z.sign == .minus)
        let none = try Self.cloud(5, colours: "none")
        #expect(!none.hasColors && none.colors == nil && none.color(at: 0) == nil)
        // A colour a code's float misses by an ulp stays a float.
        let near = try PaintCloud(path: "n", positions: [.zero], colors: [SIMD3(UInt8(77).unitChannel.nextUp, 0, 0)])
        guard case .floats = near.ownColors else {
            Issue.record("expected floats")
            return
        }
    }
}
