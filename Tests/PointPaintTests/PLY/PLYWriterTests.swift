import Foundation
import Testing
@testable import PointPaint

@Suite("PLY writer")
struct PLYWriterTests {
    @Test("quantisation rounds, clips and sends NaN to 0")
    func quantize() {
        #expect(PLYWriter.quantize(0) == 0)
        #expect(PLYWriter.quantize(-0.0) == 0)
        #expect(PLYWriter.quantize(1) == 255)
        #expect(PLYWriter.quantize(0.5) == 128)
        #expect(PLYWriter.quantize(Float(127.49) / 255) == 127)
        #expect(PLYWriter.quantize(-3) == 0)
        #expect(PLYWriter.quantize(7) == 255)
        #expect(PLYWriter.quantize(.infinity) == 255)
        #expect(PLYWriter.quantize(-.infinity) == 0)
        #expect(PLYWriter.quantize(.nan) == 0)
        for code in 0 ... 255 { #expect(PLYWriter.quantize(Float(code) / 255) == UInt8(code)) }
    }

    @Test("the vector quantisation of the points fast path equals quantize lane by lane, and flags channels outside 0…1")
    func vectorQuantize() {
        // Every code's centre and the float neighbours of each half-level boundary (where floor
        // and round-to-even part), the unit range's edges, specials, and a random spread.
        var values: [Float] = [0, -0.0, 1, 0.5, -3, 7, .infinity, -.infinity, .nan, -.nan,
                               .leastNonzeroMagnitude, -.leastNonzeroMagnitude, Float(1).nextUp, Float(1).nextDown, 254.5 / 255]
        for code in 0 ... 256 {
            let half = (Float(code) - 0.5) / 255
            values += [Float(code) / 255, half, half.nextUp, half.nextDown, half.nextUp.nextUp, half.nextDown.nextDown]
        }
        var rng = SystemRandomNumberGenerator()
        for _ in 0 ..< 20_000 { values.append(Float.random(in: -0.2 ... 1.2, using: &rng)) }
        for (k, v) in values.enumerated() {
            let other = values[(k * 7 + 3) % values.count], third = values[(k * 13 + 5) % values.count]
            let lanes = SIMD4<Float>(v, other, third, .nan)
            let word = PLYWriter.quantizedWord(lanes)
            let expected = UInt32(PLYWriter.quantize(v)) | UInt32(PLYWriter.quantize(other)) << 8 | UInt32(PLYWriter.quantize(third)) << 16
            #expect(word & 0xFF_FFFF == expected, "\(v) \(other) \(third)")
            let flagged = PLYWriter.outsideUnitBits(lanes)
            let wide = [v, other, third].contains { !($0 >= 0 && $0 <= 1) }  // −0 counts as 0
            #expect(((flagged.x | flagged.y | flagged.z) < 0) == wide, "\(v) \(other) \(third)")
        }
    }

    @Test("wide colour is any channel below 0, above 1 or NaN; −0 and 1 are not wide")
    func wideDetection() {
        #expect(!PLYWriter.hasWideColor([SIMD3(0, 0.5, 1), SIMD3(-0.0, 1, 0)]))
        #expect(!PLYWriter.hasWideColor([]))
        #expect(PLYWriter.hasWideColor([SIMD3(0, 0.5, 1), SIMD3(0, 1.0001, 0)]))
        #expect(PLYWriter.hasWideColor([SIMD3(-1e-7, 0.5, 0.5)]))
        #expect(PLYWriter.hasWideColor([SIMD3(0.5, 0.5, .nan)]))
        #expect(PLYWriter.hasWideColor([SIMD3(0.5, -.infinity, 0.5)]))
    }

    @Test("binary points encoded over several chunks read back record by record")
    func chunks() throws {
        let n = PLYWriter.chunkBytes / 15 * 2 + 7  // two full chunks and a short one
        var positions: [SIMD3<Float>] = [], colors: [SIMD3<Float>] = []
        for i in 0 ..< n {
            positions.append(SIMD3(Float(i), -Float(i) * 0.5, 1 / Float(i + 1)))
            colors.append(SIMD3(Float(i % 256) / 255, Float((i / 256) % 256) / 255, 0.5))
        }
        let cloud = VoxelCloud(voxelSize: 0.5, positions: positions, colors: colors)
        let bytes = try PLYWriter().encode(cloud)
        let read = try PLYReader.read(bytes: bytes, file: "chunks.ply").cloud(file: "chunks.ply")
        // Read back measured from the cloud's rounded centre (it reaches past ±1024 m): each
        // coordinate within a float's step at the offset's size (under a micrometre here).
        let mismatch = positions.indices.first { i in
            let d = read.worldPosition(i) - SIMD3<Double>(positions[i])
            return max(d.x.magnitude, d.y.magnitude, d.z.magnitude) > 1e-6
        }
        #expect(read.count == n && mismatch == nil, "vertex \(mismatch ?? -1) of \(n), origin \(read.origin)")
        let codes: ([SIMD3<Float>]) -> [SIMD3<UInt8>] = { list in
            list.map { (c: SIMD3<Float>) -> SIMD3<UInt8> in SIMD3<UInt8>((c * 255).rounded(.toNearestOrAwayFromZero)) }
        }
        #expect(codes(read.colors) == codes(colors))
    }

    @Test("files on disk equal the in-memory encoding, over many chunks, in every layout",
          arguments: [PLYGeometry.points, .boxes], [PLYEncoding.binaryLittleEndian, .binaryBigEndian])
    func diskEqualsMemory(geometry: PLYGeometry, encoding: PLYEncoding) throws {
        // More than two chunks of records either way (a box is 8 vertices and 6 faces).
        let n = geometry == .points ? PLYWriter.chunkBytes / 15 * 2 + 7 : 40_000
        var positions: [SIMD3<Float>] = [], colors: [SIMD3<Float>] = []
        for i in 0 ..< n {
            positions.append(SIMD3(Float(i % 100), Float(i / 100), 0.5) * 0.01)
            colors.append(SIMD3(Float(i % 256) / 255, 0.25, 0.75))
        }
        // Wide colour nowhere, only in the last chunk (found after most of the file is written,
        // which then starts again with float colours), and from the start.
        var lateWide = colors
        lateWide[n - 1] = SIMD3(1.2, -0.1, 0.5)
        let earlyWide = colors.enumerated().map { $0.offset % 3 == 0 ? SIMD3(1.2, -0.1, 0.5) : $0.element }
        for (colors, wide) in [(colors, PLYWideColor.auto), (lateWide, .auto), (earlyWide, .auto), (earlyWide, .never)] {
            let cloud = VoxelCloud(voxelSize: 0.01, positions: positions, colors: colors)
            let writer = PLYWriter(encoding: encoding, geometry: geometry, wideColor: wide)
            let path = FileManager.default.temporaryDirectory.path + "/pointpaint-writer-\(UInt32.random(in: 0 ... .max)).ply"
            defer { try? FileManager.default.removeItem(atPath: path) }
            try writer.write(cloud, to: path)
            let disk = try #require(FileManager.default.contents(atPath: path))
            let memory = try writer.encode(cloud)
            #expect(Array(disk) == memory)
            let header = String(decoding: memory.prefix(400), as: UTF8.self)
            #expect(header.contains("red_f") == (wide == .auto && PLYWriter.hasWideColor(colors)))
        }
    }
}
