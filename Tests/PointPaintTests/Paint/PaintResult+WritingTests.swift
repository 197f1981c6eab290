import Foundation
import Testing
@testable import PointPaint

/// `PaintResult.writePLY` streams the same bytes as `PLYWriter.write(plyFile(...))`.
@Suite struct PaintResultWritingTests {
    /// A result of `n` vertices, some outside sRGB when `wide`, some unpainted when `flagged`.
    static func result(count n: Int, wide: Bool, flagged: Bool, spread: Bool, voxelSize: Float? = nil) -> PaintResult {
        let positions = (0 ..< n).map { SIMD3<Float>(Float($0) * 0.001, -Float($0 % 97), Float($0 % 13) / 7) }
        let colors = (0 ..< n).map { i -> SIMD3<Float> in
            let c = SIMD3<Float>(Float(i % 256) / 255, Float((i / 3) % 256) / 255, 0.5)
            return wide && i % 1000 == 7 ? c + SIMD3(0.2, -0.1, 0) : c
        }
        let counts = (0 ..< n).map { UInt32($0 % 5) }
        let painted = (0 ..< n).map { !flagged || $0 % 11 != 0 }
        return PaintResult(cloud: VoxelCloud(voxelSize: voxelSize, positions: positions, colors: colors, counts: counts),
                           painted: painted, statistics: CloudPainter.Statistics(),
                           colourSD: spread ? (0 ..< n).map { Float($0 % 7) / 9 } : nil)
    }

    @Test(arguments: [(false, false, false), (true, true, true), (false, true, false), (true, false, true)])
    func streamedEqualsTheGenericWriter(wide: Bool, flagged: Bool, spread: Bool) throws {
        let dir = TemporaryDirectory()
        let result = Self.result(count: 3000, wide: wide, flagged: flagged, spread: spread, voxelSize: spread ? 0.01 : nil)
        for colours in [PLYWideColor.auto, .always, .never] {
            for quality in [false, true] {
                let path = dir.file("streamed.ply")
                try result.writePLY(to: path, wideColor: colours, source: "cap\nture", comments: ["a", "b\rc"], qualityProperties: quality)
                let expected = PLYWriter.encode(result.plyFile(wideColor: colours, source: "cap\nture", comments: ["a", "b\rc"], qualityProperties: quality))
                let written = try #require(FileManager.default.contents(atPath: path))
                #expect(written == Data(expected), "wide \(wide), flagged \(flagged), spread \(spread), \(colours), quality \(quality)")
            }
        }
    }

    @Test func moreThanOneChunk() throws {
        let dir = TemporaryDirectory()
        let result = Self.result(count: PaintResult.writeChunk + 1234, wide: true, flagged: true, spread: true)
        let path = dir.file("chunks.ply")
        try result.writePLY(to: path, qualityProperties: true)
        let expected = PLYWriter.encode(result.plyFile(qualityProperties: true))
        #expect(FileManager.default.contents(atPath: path) == Data(expected))
    }

    @Test func otherEncodingsGoThroughTheGenericWriter() throws {
        let dir = TemporaryDirectory()
        let result = Self.result(count: 10, wide: true, flagged: true, spread: true)
        for encoding in [PLYEncoding.ascii, .binaryBigEndian] {
            let path = dir.file("other.ply")
            try result.writePLY(to: path, encoding: encoding, qualityProperties: true)
            let expected = PLYWriter.encode(result.plyFile(encoding: encoding, qualityProperties: true))
            #expect(FileManager.default.contents(atPath: path) == Data(expected))
        }
    }

    @Test func anUnwritablePathIsOneErrorNamingIt() throws {
        let path = "/nonexistent-\(UUID().uuidString)/out.ply"
        let error = try #require(throws: PointPaintError.self) {
            try Self.result(count: 3, wide: false, flagged: false, spread: false).writePLY(to: path)
        }
        #expect(error.file == path)
    }
}
