import Foundation
import Testing
@testable import PointPaint

@Suite("COPC")
struct COPCTests {
    /// `count` points on a few planes, with colours.
    private func scene(_ count: Int) -> (positions: [SIMD3<Float>], colors: [SIMD3<Float>]) {
        var rng = SplitMix64(seed: 3)
        var positions: [SIMD3<Float>] = [], colors: [SIMD3<Float>] = []
        for i in 0 ..< count {
            let u = Float(rng.next() % 10_000) * 0.001, v = Float(rng.next() % 10_000) * 0.001
            positions.append(i % 2 == 0 ? SIMD3(u, v, 0) : SIMD3(u, 0, v))
            colors.append(SIMD3(u / 10, v / 10, 0.5))
        }
        return (positions, colors)
    }

    /// The points of a cloud with their colours, sorted, to compare clouds in any order.
    private func sorted(_ cloud: VoxelCloud) -> [[Float]] {
        (0 ..< cloud.count).map { i in
            [cloud.positions[i].x, cloud.positions[i].y, cloud.positions[i].z, cloud.colors[i].x, cloud.colors[i].y, cloud.colors[i].z]
        }.sorted { $0.lexicographicallyPrecedes($1) }
    }

    @Test("a .copc.laz holds the LAS file's points in an octree whose hierarchy lists every one")
    func writesAnOctree() throws {
        let dir = TemporaryDirectory()
        try writeWithLAS(scene(100_000), to: dir.file("x.copc.laz"))
        let summary = try LASSummary(path: dir.file("x.copc.laz"))
        #expect(COPCFile.isCOPC(summary.header))
        let copc = try #require(summary.copc)
        #expect(copc.points == 100_000 && copc.nodes > 1 && copc.levels >= 2)
        #expect(copc.info.spacing == 2 * copc.info.halfsize / 128)
        #expect(summary.description.contains("COPC: \(copc.nodes) octree nodes"))
        // The same points (in octree order), and a LAZ file any LAZ reader reads.
        let a = try LASReader.readCloud(path: dir.file("x.copc.laz")), b = try LASReader.readCloud(path: dir.file("x.las"))
        #expect(sorted(a) == sorted(b))
        #expect(try LAZParameters(header: summary.header, file: "x").chunkSize == nil)
    }

    @Test("convert turns COPC into plain LAS and LAZ without its records, and does not write COPC")
    func convert() throws {
        let dir = TemporaryDirectory()
        let (positions, colors) = scene(5_000)
        try LASWriter().write(positions: positions, colors: colors, to: dir.file("x.copc.laz"))
        for name in ["y.las", "y.laz"] {
            try LASConverter.convert(dir.file("x.copc.laz"), to: dir.file(name))
            let h = try LASReader.readHeader(path: dir.file(name))
            #expect(!h.records.contains { $0.userID == COPCFile.userID } && h.extendedRecordsOffset == nil && !COPCFile.isCOPC(h))
            #expect(try sorted(LASReader.readCloud(path: dir.file(name))) == sorted(LASReader.readCloud(path: dir.file("x.copc.laz"))))
        }
        let refused = try #require(throws: PointPaintError.self) { try LASConverter.convert(dir.file("y.las"), to: dir.file("z.copc.laz")) }
        #expect(refused.kind == .unsupported && refused.place == .part("-o"))
        #expect(!FileManager.default.fileExists(atPath: dir.file("z.copc.laz")))
    }

    @Test("the octree puts a point at the shallowest level whose cell is free")
    func octreeLevels() {
        // Four points in one root cell of a 1 m cube: the first stays at level 0, the next go deeper.
        let points: [SIMD3<Double>] = [[0, 0, 0], [0.001, 0, 0], [0.002, 0, 0], [1, 1, 1], [0.0005, 0.0005, 0]]
        let octree = COPCOctree(count: points.count, step: 0.0001) { points[$0] }
        var level = [Int](repeating: -1, count: points.count)
        for node in octree.nodes { for i in node.points { level[i] = Int(node.key.level) } }
        #expect(level[0] == 0 && level[3] == 0)
        #expect(level[1] >= 1 && level[2] >= 1 && level[4] > level[1])
        #expect(octree.nodes.map(\.key) == octree.nodes.map(\.key).sorted())
    }

    @Test("a hierarchy with a loop, or an entry past the end, is one error")
    func damagedHierarchy() throws {
        let dir = TemporaryDirectory()
        let good = try writtenBytes(scene(20_000), to: dir.file("ok.copc.laz"))
        let info = try #require(try LASSummary(path: dir.file("ok.copc.laz")).copc).info
        func failure(_ bytes: [UInt8]) throws -> PointPaintError {
            try StoreFixtures.write(bytes, to: dir.file("bad.copc.laz"))
            return try #require(throws: PointPaintError.self) { _ = try LASSummary(path: dir.file("bad.copc.laz")) }
        }
        func entry(_ bytes: inout [UInt8], offset: Int, size: Int32, count: Int32) {
            let o = info.rootOffset
            withUnsafeBytes(of: UInt64(offset).littleEndian) { bytes.replaceSubrange(o + 16 ..< o + 24, with: $0) }
            withUnsafeBytes(of: size.littleEndian) { bytes.replaceSubrange(o + 24 ..< o + 28, with: $0) }
            withUnsafeBytes(of: count.littleEndian) { bytes.replaceSubrange(o + 28 ..< o + 32, with: $0) }
        }
        var loop = good
        entry(&loop, offset: info.rootOffset, size: Int32(info.rootSize), count: -1)  // a child page that is the root itself
        let looped = try failure(loop)
        #expect(looped.kind == .malformed && looped.message.contains("loop"))
        var past = good
        entry(&past, offset: good.count + 100, size: 1000, count: 5)
        let outside = try failure(past)
        #expect(outside.place == .element("COPC hierarchy entry", 0) && outside.message.contains("outside the file"))
        var page = good
        entry(&page, offset: good.count - 16, size: 64, count: -1)
        #expect(try failure(page).message.contains("inside the file"))
    }
}
