import Foundation
import Testing
import PointPaint

/// `replay --shard`, `merge`, store output and `info` on stores: sharded work gives the bytes of
/// one run; bad shards, mismatched or damaged stores give one clear line.
@Suite struct StoreCommandsTests {
    /// A synthesized capture of 7 frames in a fresh directory.
    static func capture() throws -> (directory: String, capture: String) {
        let dir = temporaryDirectory()
        let capture = dir + "/cap"
        try Tool.synth(["-o", capture, "--frames", "7", "--size", "96x64", "--points", "150"])
        return (dir, capture)
    }

    static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @discardableResult
    static func run(_ arguments: [String]) throws -> Tool.Output {
        let result = try Tool.run(arguments)
        #expect(result.status == 0, "\(arguments.joined(separator: " ")): \(result.stderr)")
        return result
    }

    @Test(arguments: AccumulationPolicy.allCases)
    func shardsAndRegionsMergeToTheBytesOfOneReplay(policy: AccumulationPolicy) throws {
        let (dir, capture) = try Self.capture()
        let grid = ["--voxel-size", "0.03", "--accumulate", policy.rawValue, "--quiet"]
        try Self.run(["replay", capture, "-o", dir + "/whole.ply"] + grid)
        let whole = try Self.run(["replay", capture, "-o", dir + "/whole.ppstore"] + grid)
        let voxels = whole.stdout.split(separator: "\n").last.flatMap { Int($0.split(separator: " ")[1]) } ?? 0
        #expect(voxels > 100, "a cloud of some voxels: \(whole.stdout)")
        for n in [2, 3] {
            let parts = (0 ..< n).map { dir + "/part-\($0)-of-\(n).ppstore" }
            for (k, part) in parts.enumerated() { try Self.run(["replay", capture, "--shard", "\(k)/\(n)", "-o", part] + grid) }
            let shuffled = Array(parts.reversed())
            try Self.run(["merge"] + shuffled + ["-o", dir + "/merged.ply"])
            try Self.run(["merge"] + shuffled + ["-o", dir + "/merged.ppstore"])
            #expect(try Self.bytes(dir + "/merged.ply") == Self.bytes(dir + "/whole.ply"), "\(n) shards, PLY")
            #expect(try Self.bytes(dir + "/merged.ppstore") == Self.bytes(dir + "/whole.ppstore"), "\(n) shards, store")
            // Regions of the reduce, merged again (they hold disjoint runs of codes).
            let regions = (0 ..< 3).map { dir + "/region-\($0).ppstore" }
            for (r, region) in regions.enumerated() { try Self.run(["merge"] + parts + ["--region", "\(r)/3", "-o", region]) }
            try Self.run(["merge"] + regions.reversed() + ["-o", dir + "/regions.ply"])
            #expect(try Self.bytes(dir + "/regions.ply") == Self.bytes(dir + "/whole.ply"), "\(n) shards, 3 regions")
        }
    }

    @Test func moreShardsThanFramesLeaveEmptyStoresThatMergeAway() throws {
        let (dir, capture) = try Self.capture()
        try Self.run(["replay", capture, "-o", dir + "/whole.ply", "--quiet"])
        let parts = (0 ..< 9).map { dir + "/p\($0).ppstore" }
        for (k, part) in parts.enumerated() { try Self.run(["replay", capture, "--shard", "\(k)/9", "-o", part, "--quiet"]) }
        let empty = try Self.run(["info", parts[8]])
        #expect(empty.stdout.contains("0 voxels in 0 chunks"))
        #expect(empty.stdout.contains("replay of 0 frames"))
        try Self.run(["merge"] + parts + ["-o", dir + "/m.ply"])
        #expect(try Self.bytes(dir + "/m.ply") == Self.bytes(dir + "/whole.ply"))
    }

    @Test func voxelizeWritesStoresAndInfoReadsThem() throws {
        let dir = temporaryDirectory()
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let truth = root.appendingPathComponent("Captures/sample/truth.ply").path
        try Self.run(["voxelize", truth, "-o", dir + "/v.ply", "--voxel-size", "0.05"])
        try Self.run(["voxelize", truth, "-o", dir + "/v.ppstore", "--voxel-size", "0.05"])
        try Self.run(["merge", dir + "/v.ppstore", "-o", dir + "/m.ply"])
        #expect(try Self.bytes(dir + "/m.ply") == Self.bytes(dir + "/v.ply"))
        let info = try Self.run(["info", dir + "/v.ppstore"])
        #expect(info.stdout.contains("PointPaint store"))
        #expect(info.stdout.contains("voxel size: 0.05"))
        #expect(info.stdout.contains("from: voxelised points of '\(truth)'"))
        #expect(info.stdout.contains("checksums: 1 chunk verified"))
        let twice = try Self.run(["merge", dir + "/v.ppstore", dir + "/v.ppstore", "-o", dir + "/twice.ppstore"])
        let once = try Self.run(["info", dir + "/v.ppstore"]).stdout, doubled = try Self.run(["info", dir + "/twice.ppstore"]).stdout
        #expect(twice.stdout.contains("merged 2 stores"))
        func samples(_ text: String) -> Int? {
            text.split(separator: "\n").first { $0.contains("samples: ") }.flatMap { Int($0.split(separator: " ").last!) }
        }
        #expect(samples(doubled) == samples(once).map { 2 * $0 }, "merging a store with itself counts its samples twice")
        let help = try Self.run(["merge", "--help"]).stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(help.contains("A store given twice (or merged with itself) counts its samples twice"), "merge --help says so")
    }

    @Test(arguments: [
        (["--shard", "3/2"], "3/2: K must be from 0 to N − 1 = 1"),
        (["--shard", "0/0"], "0/0: N must be at least 1"),
        (["--shard", "1"], "expected K/N with whole numbers 0 ≤ K < N"),
        (["--shard=-1/2"], "K must be from 0"),
    ])
    func badShardsGiveOneLine(options: [String], expected: String) throws {
        let (dir, capture) = try Self.capture()
        let result = try Tool.run(["replay", capture, "-o", dir + "/x.ppstore"] + options)
        #expect(result.status != 0)
        #expect(CaptureCommandsTests.errorLines(result).first?.contains(expected) == true, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/x.ppstore"))
    }

    @Test func unknownOutputExtensionsAreRefused() throws {
        let (dir, capture) = try Self.capture()
        for output in ["cloud.xyz", "cloud"] {
            let result = try Tool.run(["replay", capture, "-o", dir + "/" + output])
            #expect(result.status != 0)
            let lines = CaptureCommandsTests.errorLines(result)
            #expect(lines.count == 1 && lines[0].contains("-o: expected an output file ending in .ply"), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir + "/" + output))
        }
        let boxes = try Tool.run(["replay", capture, "-o", dir + "/s.ppstore", "--geometry", "boxes"])
        #expect(boxes.status != 0 && boxes.stderr.contains("--geometry applies to PLY output"))
    }

    @Test func mismatchedAndDamagedStoresGiveOneLine() throws {
        let (dir, capture) = try Self.capture()
        try Self.run(["replay", capture, "-o", dir + "/a.ppstore", "--quiet"])
        try Self.run(["replay", capture, "-o", dir + "/b.ppstore", "--voxel-size", "0.02", "--quiet"])
        try Self.run(["replay", capture, "-o", dir + "/c.ppstore", "--accumulate", "latest", "--quiet"])
        try Self.run(["replay", capture, "-o", dir + "/d.ppstore", "--look", "noir", "--quiet"])
        for (other, part) in [("b", "voxel size"), ("c", "policy"), ("d", "grade")] {
            let result = try Tool.run(["merge", dir + "/a.ppstore", dir + "/\(other).ppstore", "-o", dir + "/m.ply"])
            #expect(result.status != 0)
            let lines = CaptureCommandsTests.errorLines(result)
            #expect(lines.count == 1 && lines[0].contains("\(dir)/\(other).ppstore: \(part): expected"), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir + "/m.ply"))
        }
        var damaged = try Self.bytes(dir + "/a.ppstore")
        damaged[Int(damaged[12]) + Int(damaged[13]) << 8 + 32 + 50] ^= 0x10  // inside the first chunk's voxels
        try damaged.write(to: URL(fileURLWithPath: dir + "/damaged.ppstore"))
        let result = try Tool.run(["merge", dir + "/a.ppstore", dir + "/damaged.ppstore", "-o", dir + "/m.ppstore"])
        #expect(result.status != 0)
        let lines = CaptureCommandsTests.errorLines(result)
        #expect(lines.count == 1 && lines[0].contains("damaged.ppstore: chunk 0: voxel data checksum mismatch"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/m.ppstore"), "never half-written")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).allSatisfy { !$0.hasPrefix(".") }, "no temporary left behind")
        let none = try Tool.run(["merge", "-o", dir + "/m.ppstore"])
        #expect(none.status != 0 && none.stderr.contains("give at least one .ppstore file"))
    }
}
