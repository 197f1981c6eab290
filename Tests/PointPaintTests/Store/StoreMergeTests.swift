import Foundation
import Testing
@testable import PointPaint

/// Shards of one set of frames, written as store files: frame f goes to shard f % n.
private func shardFiles(_ dir: TemporaryDirectory, n: Int, frames: Int = 8, policy: AccumulationPolicy = .mean) throws -> [String] {
    try (0 ..< n).map { k in
        let path = dir.file("part-\(k).ppstore")
        var store = SceneStore(voxelSize: 0.02, policy: policy)
        for f in stride(from: k, to: frames, by: n) {
            let (points, colors) = StoreFixtures.samples(frame: f, count: 2500, extent: 1, seed: 4)
            store.add(points: points, colors: colors, frame: f)
        }
        try store.writeStore(to: path, provenance: StoreProvenance(kind: .replay, source: "cap", frameCount: (frames - k + n - 1) / n))
        return path
    }
}

@Suite("Store merges")
struct StoreMergeTests {
    @Test("merging any number of shards in any order gives the store of one run", arguments: AccumulationPolicy.allCases)
    func exact(policy: AccumulationPolicy) throws {
        let dir = TemporaryDirectory()
        // The reference: one "shard" holding every frame.
        let reference = try shardFiles(dir, n: 1, policy: policy)[0]
        try FileManager.default.moveItem(atPath: reference, toPath: dir.file("whole.ppstore"))
        let expected = try StoreFixtures.bytes(dir.file("whole.ppstore"))
        for n in [2, 5] {
            let parts = try shardFiles(dir, n: n, policy: policy)
            for order in [parts, parts.reversed(), parts.shuffled()] {
                try StoreMerge(paths: order).write(to: dir.file("m.ppstore"))
                #expect(try StoreFixtures.bytes(dir.file("m.ppstore")) == expected, "\(n) shards")
            }
            // Merging in two levels, grouped differently.
            try StoreMerge(paths: Array(parts.prefix(2))).write(to: dir.file("left.ppstore"))
            try StoreMerge(paths: [dir.file("left.ppstore")] + parts.dropFirst(2)).write(to: dir.file("m2.ppstore"))
            #expect(try StoreFixtures.bytes(dir.file("m2.ppstore")) == expected, "\(n) shards, two levels")
        }
    }

    @Test("regions tile the codes, balance the voxels, agree whatever the input order, and merge to the whole")
    func regions() throws {
        let dir = TemporaryDirectory()
        let parts = try shardFiles(dir, n: 3)
        try StoreMerge(paths: parts).write(to: dir.file("whole.ppstore"))
        let total = try StoreFileReader(path: dir.file("whole.ppstore")).info.voxelCount
        for n in [1, 2, 4, 7] {
            let merge = try StoreMerge(paths: parts)
            let reversed = try StoreMerge(paths: parts.reversed())
            var regionFiles: [String] = []
            var sizes: [Int] = []
            var previousUpper: UInt64 = 0
            for k in 0 ..< n {
                let region = Shard(index: k, count: n)!
                let codes = merge.codes(of: region)
                #expect(codes == reversed.codes(of: region))
                #expect(codes.lowerBound == previousUpper)
                previousUpper = codes.upperBound
                let path = dir.file("region-\(k).ppstore")
                sizes.append(try merge.write(to: path, region: region).voxelCount)
                regionFiles.append(path)
            }
            #expect(previousUpper == .max)
            #expect(sizes.reduce(0, +) == total)
            // Shared cells count once per input in the quantiles: a region's share is within 15 % of even.
            #expect(sizes.allSatisfy { abs($0 * n - total) * 100 <= 15 * total }, "\(n) regions: \(sizes) of \(total)")
            try StoreMerge(paths: regionFiles.shuffled()).write(to: dir.file("joined.ppstore"))
            #expect(try StoreFixtures.bytes(dir.file("joined.ppstore")) == StoreFixtures.bytes(dir.file("whole.ppstore")), "\(n) regions")
        }
    }

    @Test("stores of another grid, policy or grade are refused naming the input and the part")
    func mismatches() throws {
        let dir = TemporaryDirectory()
        func file(_ name: String, size: Float = 0.02, policy: AccumulationPolicy = .mean, grade: String? = nil) throws -> String {
            var s = SceneStore(voxelSize: size, policy: policy)
            s.add(SIMD3(0.1, 0.1, 0.1), color: SIMD3(0.5, 0.5, 0.5))
            try s.writeStore(to: dir.file(name), provenance: StoreProvenance(kind: .replay, grade: grade))
            return dir.file(name)
        }
        let a = try file("a.ppstore")
        for (other, part) in [(try file("b.ppstore", size: 0.03), "voxel size"), (try file("c.ppstore", policy: .first), "policy"),
                              (try file("d.ppstore", grade: "noir"), "grade")] {
            let error = try #require(throws: PointPaintError.self) { _ = try StoreMerge(paths: [a, other]) }
            #expect(error.kind == .unsupported && error.place == .part(part) && error.file == other)
        }
    }

    @Test("a cell past 2³² − 1 samples is refused with the input and voxel; nothing is written")
    func overflow() throws {
        let dir = TemporaryDirectory()
        var s = SceneStore(voxelSize: 1)
        s.add(points: [SIMD3(0.5, 0.5, 0.5), SIMD3(3.5, 0.5, 0.5)], colors: [.zero, .zero])
        s.storage.records[1].count = UInt32.max / 2 + 1
        try s.writeStore(to: dir.file("big.ppstore"), provenance: StoreProvenance(kind: .points))
        let error = try #require(throws: PointPaintError.self) {
            try StoreMerge(paths: [dir.file("big.ppstore"), dir.file("big.ppstore")]).write(to: dir.file("out.ppstore"))
        }
        #expect(error.kind == .tooLarge && error.place == .element("voxel", 1) && error.file == dir.file("big.ppstore"))
        #expect(!FileManager.default.fileExists(atPath: dir.file("out.ppstore")))
    }

    @Test("frame and refused counts that add past Int.max are refused naming the input; nothing is written",
          arguments: [(48, "frame count"), (40, "refused-sample count")])
    func countOverflow(offset: Int, what: String) throws {
        let dir = TemporaryDirectory()
        let good = try shardFiles(dir, n: 1)[0]
        // A header count near 2⁶³ with the checksum made right, as a damaged file can hold:
        // `info` and the reader accept it (any count up to Int.max is a count).
        var bytes = try StoreFixtures.bytes(good)
        let huge = UInt64(Int.max - 5)
        for i in 0 ..< 8 { bytes[offset + i] = UInt8(truncatingIfNeeded: huge >> (8 * UInt64(i))) }
        let damaged = dir.file("damaged.ppstore")
        try StoreFixtures.write(StoreFixtures.resealed(bytes), to: damaged)
        let info = try StoreFileReader(path: damaged).info
        #expect(offset == 48 ? info.provenance.frameCount == Int.max - 5 : info.rejectedCount == Int.max - 5)
        // The good store replayed 8 frames and refused no sample: its frames push a damaged
        // frame count over, and a damaged store merged with itself overflows either count.
        for inputs in offset == 48 ? [[good, damaged], [damaged, damaged]] : [[damaged, damaged]] {
            let error = try #require(throws: PointPaintError.self) {
                try StoreMerge(paths: inputs).write(to: dir.file("out.ppstore"))
            }
            #expect(error.kind == .tooLarge && error.file == damaged && error.place == .part("header"))
            #expect(error.message.hasPrefix("\(what) \(Int.max - 5) takes the inputs' total past"))
            #expect(!FileManager.default.fileExists(atPath: dir.file("out.ppstore")))
        }
        // A regional merge adds the counts the same way.
        #expect(throws: PointPaintError.self) { try StoreMerge(paths: [damaged, damaged]).write(to: dir.file("r.ppstore"), region: Shard(index: 1, count: 2)) }
    }

    @Test("region boundaries: weighted quantiles of the sample codes, independent of order")
    func boundaries() {
        let samples: [(code: UInt64, weight: Int)] = [(0, 1000), (1000, 2000), (1500, 1000), (600, 1000), (9000, 0)]
        let b = StoreRegions.boundaries(samples: samples, regions: 5)
        // 5000 voxels, 1000 a region: 0 (1000), 600 (1000), 1000 (2000), 1500 (1000).
        #expect(b == [0, 600, 1000, 1500, 1500, .max])
        #expect(StoreRegions.boundaries(samples: samples.reversed(), regions: 5) == b)
        #expect(StoreRegions.boundaries(samples: [], regions: 3) == [0, .max, .max, .max])
        #expect(StoreRegions.boundaries(samples: samples, regions: 1) == [0, .max])
    }
}
