import Foundation
import Testing
@testable import PointPaint

/// Version 2 store files: voxels with weight sums and sums of squares (`StoreContents`), as
/// `pointpaint paint` writes weighted voxels.
@Suite("Store files: weighted voxels and spread")
struct WeightedStoreTests {
    static let info = StoreInfo(voxelSize: 0.05, policy: .mean, provenance: StoreProvenance(kind: .replay, source: "cap", frameCount: 3),
                                voxelCount: 0, sampleCount: 0, rejectedCount: 0, keyBounds: nil, contents: [.weights, .spread])

    /// A linear colour in the store's fixed point, rounded.
    static func fixed(_ c: SIMD3<Float>) -> SIMD3<Int64> {
        let v = SIMD3<Double>(c) * SceneStore.fixedPointScale
        return SIMD3(Int64(v.x.rounded()), Int64(v.y.rounded()), Int64(v.z.rounded()))
    }

    /// Observations (colour, weight 1…255) of a few cells, frame by frame, as fixed-point voxels.
    static func voxels(_ observations: [(cell: VoxelKey, color: SIMD3<Float>, weight: Int64, frame: UInt32)],
                       contents: StoreContents = [.weights, .spread]) -> [StoredVoxel] {
        var byCode: [UInt64: StoredVoxel] = [:]
        for o in observations {
            let c = fixed(o.color), c2 = fixed(o.color * o.color)
            let w = contents.contains(.weights) ? o.weight : 1
            var v = StoredVoxel(code: o.cell.mortonCode, r: c.x * w, g: c.y * w, b: c.z * w, count: 1, first: o.frame, last: o.frame)
            if contents.contains(.weights) { v.weight = UInt64(w) }
            if contents.contains(.spread) { (v.r2, v.g2, v.b2) = (c2.x * w, c2.y * w, c2.z * w) }
            byCode[v.code] = byCode[v.code].map { $0.merged(with: v, policy: .mean)! } ?? v
        }
        return byCode.values.sorted { $0.code < $1.code }
    }

    static let observations: [(cell: VoxelKey, color: SIMD3<Float>, weight: Int64, frame: UInt32)] = [
        (VoxelKey(x: 0, y: 0, z: 0), SIMD3(0.2, 0.4, 0.6), 200, 0),
        (VoxelKey(x: 0, y: 0, z: 0), SIMD3(0.6, 0.4, 0.2), 50, 1),
        (VoxelKey(x: 3, y: -2, z: 1), SIMD3(1.2, -0.1, 0.5), 7, 1),
        (VoxelKey(x: 0, y: 0, z: 0), SIMD3(0.5, 0.5, 0.5), 255, 2),
        (VoxelKey(x: -5, y: 9, z: 2), SIMD3(0.1, 0.1, 0.1), 1, 2),
    ]

    @Test("weighted voxels with their spread round-trip through a version 2 file; the colour is the weighted mean")
    func roundTrip() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("w.ppstore")
        let voxels = Self.voxels(Self.observations)
        let written = try StoreFileWriter.write(StoredVoxelArray(voxels, info: Self.info), to: path)
        #expect(written.contents == [.weights, .spread] && written.voxelCount == 3 && written.sampleCount == 5)
        let bytes = try StoreFixtures.bytes(path)
        #expect(bytes[8] == 2 && bytes[23] == 3, "version 2, both flags")
        let reader = try StoreFileReader(path: path)
        #expect(reader.info == written)
        #expect(try StoreFixtures.readAll(path) == voxels)
        // The first cell: (0.2·200 + 0.6·50 + 0.5·255) / 505 in red, computed in float64.
        let cloud = try reader.cloud()
        let origin = try #require(voxels.firstIndex { $0.key == VoxelKey(x: 0, y: 0, z: 0) })
        let red = (0.2 * 200 + 0.6 * 50 + 0.5 * 255) / 505.0
        #expect(abs(Double(SRGBTransfer.decode(cloud.colors[origin]).x) - red) < 1e-5)
        // Its spread: the largest channel's weighted standard deviation.
        func sd(_ values: [Double]) -> Double {
            let w: [Double] = [200, 50, 255], total = 505.0
            let mean = zip(values, w).reduce(0) { $0 + $1.0 * $1.1 } / total
            return (zip(values, w).reduce(0) { $0 + $1.1 * ($1.0 - mean) * ($1.0 - mean) } / total).squareRoot()
        }
        let expected = max(sd([0.2, 0.6, 0.5]), sd([0.4, 0.4, 0.5]), sd([0.6, 0.2, 0.5]))
        let spread = try #require(cloud.colourSD)
        #expect(abs(Double(spread[origin]) - expected) < 1e-6)
        #expect(spread.enumerated().allSatisfy { $0.offset == origin || $0.element == 0 }, "one observation: no spread")
        #expect(cloud.counts[origin] == 3)
    }

    @Test("plain stores are still written as version 1, byte for byte as before")
    func plainStaysVersionOne() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("p.ppstore")
        var info = Self.info
        info.contents = []
        let voxels = Self.voxels(Self.observations, contents: [])
        try StoreFileWriter.write(StoredVoxelArray(voxels, info: info), to: path)
        let bytes = try StoreFixtures.bytes(path)
        #expect(bytes[8] == 1 && bytes[23] == 0)
        #expect(bytes.count == 128 + 3 + 4 + 32 + 3 * 44 + 16 + 32 + 8 * 32 + 4, "header with 'cap', one chunk of 44-byte records, the index")
        #expect(try StoreFileReader(path: path).info.contents == [])
    }

    @Test("weighted halves merge into exactly the whole; weighted and plain stores refuse to merge")
    func merges() throws {
        let dir = TemporaryDirectory()
        let whole = dir.file("whole.ppstore"), a = dir.file("a.ppstore"), b = dir.file("b.ppstore"), merged = dir.file("m.ppstore")
        try StoreFileWriter.write(StoredVoxelArray(Self.voxels(Self.observations), info: Self.info), to: whole)
        try StoreFileWriter.write(StoredVoxelArray(Self.voxels(Array(Self.observations[..<2])), info: Self.info), to: a)
        try StoreFileWriter.write(StoredVoxelArray(Self.voxels(Array(Self.observations[2...])), info: Self.info), to: b)
        try StoreMerge(paths: [b, a]).write(to: merged)
        #expect(try StoreFixtures.readAll(merged) == StoreFixtures.readAll(whole))
        var plainInfo = Self.info
        plainInfo.contents = []
        let plain = dir.file("plain.ppstore")
        try StoreFileWriter.write(StoredVoxelArray(Self.voxels(Self.observations, contents: []), info: plainInfo), to: plain)
        let error = try #require(throws: PointPaintError.self) { _ = try StoreMerge(paths: [whole, plain]) }
        #expect(error.kind == .unsupported && error.place == .part("contents") && error.file == plain)
    }

    @Test("merged weighted sums past 64 bits are refused, not wrapped")
    func overflow() {
        var big = StoredVoxel(code: 1, r: .max / 2 + 1, g: 0, b: 0, count: 1 << 30, first: 0, last: 0)
        big.weight = 255 << 31
        #expect(big.merged(with: big, policy: .mean) == nil)
        var small = big
        small.r = 1
        #expect(small.merged(with: small, policy: .mean)?.r == 2)
    }

    @Test("a weight sum no weights of 1…255 reach, a negative square, unknown flags and the spread of a 'latest' store are refused")
    func badInput() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("w.ppstore")
        try StoreFileWriter.write(StoredVoxelArray(Self.voxels(Self.observations), info: Self.info), to: path)
        let bytes = try StoreFixtures.bytes(path)
        let header = Int(bytes[12]) | Int(bytes[13]) << 8
        let record = header + 32   // the first voxel's record
        func fails(_ edit: (inout [UInt8]) -> Void, resealChunk: Bool) throws -> PointPaintError {
            var b = bytes
            edit(&b)
            if resealChunk {
                // Make the chunk's checksums right again, so the voxel check is what fails.
                let payload = b.withUnsafeBytes { CRC32C.checksum(UnsafeRawBufferPointer(rebasing: $0[(header + 32) ..< (header + 32 + 3 * 76)])) }
                for i in 0 ..< 4 { b[header + 24 + i] = UInt8(truncatingIfNeeded: payload >> (8 * UInt32(i))) }
                let sum = b.withUnsafeBytes { CRC32C.checksum(UnsafeRawBufferPointer(rebasing: $0[header ..< (header + 28)])) }
                for i in 0 ..< 4 { b[header + 28 + i] = UInt8(truncatingIfNeeded: sum >> (8 * UInt32(i))) }
            } else {
                b = StoreFixtures.resealed(b)
            }
            let bad = dir.file("bad.ppstore")
            try StoreFixtures.write(b, to: bad)
            return try #require(throws: PointPaintError.self) { _ = try StoreFixtures.readAll(bad) }
        }
        let weight = try fails({ b in for i in 0 ..< 8 { b[record + 44 + i] = 0 } }, resealChunk: true)
        #expect(weight.place == .element("voxel", 0) && weight.message.contains("expected a weight sum from"))
        let square = try fails({ b in b[record + 52 + 7] = 0x80 }, resealChunk: true)
        #expect(square.place == .element("voxel", 0) && square.message.contains("sums of squares of at least 0"))
        let flags = try fails({ b in b[23] = 4 | 3 }, resealChunk: false)
        #expect(flags.kind == .unsupported && flags.message.contains("unknown voxel contents flags 7"))
        let latest = try fails({ b in b[20] = 1 }, resealChunk: false)
        #expect(latest.kind == .malformed && latest.message.contains("only with 'mean' accumulation"))
    }
}
