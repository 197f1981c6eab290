import Foundation
import Testing
import PointPaint

/// Clouds and captures in map coordinates (UTM: hundreds of kilometres from the origin) give
/// what the same data gives at the origin, moved: the same cells, the same colours, positions
/// within a sixteenth of a voxel. Before, they voxelised and painted to empty files.
@Suite struct MapCoordinatesTests {
    /// Whole-metre moves, far and negative among them.
    static let moves: [SIMD3<Double>] = [[500_000, 5_400_000, 120], [-730_000, 12_345, -4_000], [0, 0, 9_000_000]]

    /// Writes a binary PLY of `positions` as doubles with 8-bit `colors`.
    static func writeDoublePLY(_ positions: [SIMD3<Double>], colors: [SIMD3<UInt8>], to path: String) throws {
        let n = positions.count
        let vertex = PLYElement(name: "vertex", count: n, properties: [
            PLYProperty(name: "x", values: .float64(positions.map(\.x))),
            PLYProperty(name: "y", values: .float64(positions.map(\.y))),
            PLYProperty(name: "z", values: .float64(positions.map(\.z))),
            PLYProperty(name: "red", values: .uint8(colors.map(\.x))),
            PLYProperty(name: "green", values: .uint8(colors.map(\.y))),
            PLYProperty(name: "blue", values: .uint8(colors.map(\.z))),
        ])
        try PLYWriter.write(PLYFile(elements: [vertex]), to: path)
    }

    /// A written cloud's vertices as the file holds them: positions exactly, 8-bit colours, and
    /// the type of x.
    static func vertices(_ path: String) throws -> (positions: [SIMD3<Double>], colors: [SIMD3<Double>], type: String) {
        let ply = try PLYReader.read(path: path)
        let v = try #require(ply[element: "vertex"])
        func column(_ name: String) throws -> [Double] { try #require(v[property: name]).values.doubles() }
        let (x, y, z) = (try column("x"), try column("y"), try column("z"))
        let (r, g, b) = (try column("red"), try column("green"), try column("blue"))
        let type = "\(try #require(v[property: "x"]).values.scalarType)"
        return (x.indices.map { SIMD3(x[$0], y[$0], z[$0]) }, r.indices.map { SIMD3(r[$0], g[$0], b[$0]) }, type)
    }

    /// Expects `moved` to be `base` moved by `offset`: the same count and colours, positions
    /// within `tolerance`. Points are paired by position (a file lists voxels in the Morton order
    /// of cells counted from its origin, which a move may reorder).
    static func expectMoved(_ moved: String, of base: String, by offset: SIMD3<Double>, tolerance: Double) throws {
        let a = try vertices(base), b = try vertices(moved)
        #expect(a.positions.count == b.positions.count && !a.positions.isEmpty)
        func order(_ p: [SIMD3<Double>]) -> [Int] {
            p.indices.sorted { i, j in (p[i].x, p[i].y, p[i].z) < (p[j].x, p[j].y, p[j].z) }
        }
        let ia = order(a.positions), ib = order(b.positions.map { $0 - offset })
        var largest = 0.0, colours = 0
        for (i, j) in zip(ia, ib) {
            let d = b.positions[j] - offset - a.positions[i]
            largest = max(largest, d.x.magnitude, d.y.magnitude, d.z.magnitude)
            if a.colors[i] != b.colors[j] { colours += 1 }
        }
        #expect(colours == 0, "\(colours) colours differ after a move by \(offset)")
        #expect(largest <= tolerance, "positions moved by \(offset) are off by up to \(largest) m")
        #expect(b.type == "float64", "map coordinates are written as double, found \(b.type)")
    }

    @Test func voxelizeGivesTheUnmovedCellsMoved() throws {
        let dir = temporaryDirectory()
        let size = 0.05
        // Points well inside their cells (never within a tenth of a cell of a face), centred on
        // the origin, a few to a cell so colours mix.
        var generator = SplitMix64(seed: 7)
        var local: [SIMD3<Double>] = [], colors: [SIMD3<UInt8>] = []
        for _ in 0 ..< 4_000 {
            let cell = SIMD3<Double>(Double(Int.random(in: -40 ..< 40, using: &generator)), Double(Int.random(in: -40 ..< 40, using: &generator)),
                                     Double(Int.random(in: -10 ..< 10, using: &generator)))
            let inside = SIMD3((0 ..< 3).map { _ in Double.random(in: 0.1 ..< 0.9, using: &generator) })
            local.append((cell + inside) * size)
            colors.append(SIMD3((0 ..< 3).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }))
        }
        try Self.writeDoublePLY(local, colors: colors, to: dir + "/base.ply")
        let base = try Tool.run(["voxelize", dir + "/base.ply", "-o", dir + "/base-v.ply", "--voxel-size", "0.05"])
        #expect(base.status == 0, "\(base.stderr)")
        for (k, offset) in Self.moves.enumerated() {
            try Self.writeDoublePLY(local.map { $0 + offset }, colors: colors, to: dir + "/moved\(k).ply")
            let out = dir + "/moved\(k)-v.ply"
            let result = try Tool.run(["voxelize", dir + "/moved\(k).ply", "-o", out, "--voxel-size", "0.05"])
            #expect(result.status == 0, "\(result.stderr)")
            // "voxelize: 4000 points in, 1997 voxels out": the counts, not the time or the path.
            let counts = { (line: String) in line.split(separator: ",").prefix(2).joined(separator: ",") }
            #expect(counts(result.stdout) == counts(base.stdout), "\(result.stdout) against \(base.stdout)")
            try Self.expectMoved(out, of: dir + "/base-v.ply", by: offset, tolerance: size / 16)
            // The same through a store: the origin travels with it, and info names it.
            let store = dir + "/moved\(k).ppstore"
            let stored = try Tool.run(["voxelize", dir + "/moved\(k).ply", "-o", store, "--voxel-size", "0.05"])
            #expect(stored.status == 0, "\(stored.stderr)")
            let fromStore = try Tool.run(["merge", store, "-o", dir + "/from-store.ply"])
            #expect(fromStore.status == 0, "\(fromStore.stderr)")
            try Self.expectMoved(dir + "/from-store.ply", of: dir + "/base-v.ply", by: offset, tolerance: size / 16)
            let info = try Tool.run(["info", store])
            #expect(info.stdout.contains("origin: (\(offset.x), \(offset.y), \(offset.z))"), "\(info.stdout)")
        }
    }

    @Test func storesOfDifferentOriginsAreRefusedInOneLine() throws {
        let dir = temporaryDirectory()
        for (name, offset) in [("a", Self.moves[0]), ("b", Self.moves[1])] {
            try Self.writeDoublePLY([offset - 1, offset + 1], colors: [[1, 2, 3], [4, 5, 6]], to: dir + "/\(name).ply")
            let result = try Tool.run(["voxelize", dir + "/\(name).ply", "-o", dir + "/\(name).ppstore", "--voxel-size", "0.1"])
            #expect(result.status == 0, "\(result.stderr)")
        }
        let merged = try Tool.run(["merge", dir + "/a.ppstore", dir + "/b.ppstore", "-o", dir + "/ab.ply"])
        #expect(merged.status != 0)
        #expect(merged.stderr.split(separator: "\n").count == 1, "\(merged.stderr)")
        #expect(merged.stderr.contains("b.ppstore") && merged.stderr.contains("(500000, 5400000, 120) m")
            && merged.stderr.contains("(-730000, 12345, -4000) m"), "\(merged.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/ab.ply"))
    }

    @Test func plyPositionsAreDoubleOnlyWhereFloatWouldLose() throws {
        let dir = temporaryDirectory()
        let near: [SIMD3<Double>] = [[0.125, 1, 2], [3, 4, 5.5]]
        try Self.writeDoublePLY(near, colors: [[1, 2, 3], [4, 5, 6]], to: dir + "/near.ply")
        try Self.writeDoublePLY(near.map { $0 + Self.moves[0] }, colors: [[1, 2, 3], [4, 5, 6]], to: dir + "/far.ply")
        for (input, positions, expected) in [("near", "auto", "float32"), ("near", "double", "float64"), ("far", "auto", "float64"),
                                             ("far", "float", "float32")] {
            let out = dir + "/\(input)-\(positions).ply"
            let result = try Tool.run(["voxelize", dir + "/\(input).ply", "-o", out, "--voxel-size", "0.5", "--ply-positions", positions])
            #expect(result.status == 0, "\(result.stderr)")
            let written = try Self.vertices(out)
            #expect(written.type == expected, "\(input) with --ply-positions \(positions)")
            if expected == "float64" {
                let offset = input == "far" ? Self.moves[0] : .zero
                #expect(written.positions.contains([0.25, 1.25, 2.25] + offset), "\(written.positions)")
            }
        }
        let info = try Tool.run(["info", dir + "/far.ply"])
        #expect(info.stdout.contains("bounds: min (500000.125, 5400001.0, 122.0) max (500003.0, 5400004.0, 125.5)"), "\(info.stdout)")
        let las = try Tool.run(["voxelize", dir + "/far.ply", "-o", dir + "/far.las", "--voxel-size", "0.5", "--ply-positions", "double"])
        #expect(las.status != 0 && las.stderr.contains("--ply-positions applies to PLY output"), "\(las.stderr)")
    }

    /// A recording moved into map coordinates replays to the unmoved voxels, moved: the LiDAR
    /// sample's depth, and the sample's feature points (.xyz), which keep every digit (a Float
    /// would move them in 0.5 m steps at 5,400 km).
    @Test(arguments: [("Captures/iphone-lidar", false), ("Captures/sample", true)])
    func replayOfAMovedCaptureGivesTheUnmovedVoxelsMoved(recording: String, movingPoints: Bool) throws {
        let dir = temporaryDirectory()
        let size = 0.02
        let base = try Tool.run(["replay", recording, "-o", dir + "/base.ply", "--voxel-size", "\(size)", "--quiet"])
        #expect(base.status == 0, "\(base.stderr)")
        for (k, offset) in Self.moves.enumerated() {
            let capture = dir + "/moved\(k)"
            try Self.copyCapture(recording, to: capture, movedBy: offset, keepingPoints: movingPoints)
            let out = dir + "/moved\(k).ply"
            let result = try Tool.run(["replay", capture, "-o", out, "--voxel-size", "\(size)", "--quiet"])
            #expect(result.status == 0, "\(result.stderr)")
            try Self.expectMoved(out, of: dir + "/base.ply", by: offset, tolerance: size / 16)
        }
    }

    @Test func paintOfAMovedCloudAndCaptureGivesTheUnmovedColours() throws {
        let dir = temporaryDirectory()
        // The sample, centred on the origin first: its cloud's centre is the origin of both
        // the centred and the moved runs, so their points' offsets are the same numbers.
        let truth = try Self.vertices("Captures/sample/truth.ply")
        let centre = (truth.positions.reduce(SIMD3<Double>(repeating: .infinity)) { pointwiseMin($0, $1) }
            + truth.positions.reduce(SIMD3<Double>(repeating: -.infinity)) { pointwiseMax($0, $1) }) / 2
        let shift = -centre.rounded(.toNearestOrEven)
        let codes = truth.colors.map { SIMD3<UInt8>($0) }
        var runs: [(offset: SIMD3<Double>, name: String)] = [(.zero, "base")]
        runs += Self.moves.enumerated().map { ($1, "moved\($0)") }
        for run in runs {
            let capture = dir + "/" + run.name
            try Self.copyCapture("Captures/sample", to: capture, movedBy: shift + run.offset)
            try Self.writeDoublePLY(truth.positions.map { $0 + shift + run.offset }, colors: codes, to: capture + "/cloud.ply")
            for voxels in [[], ["--voxel-size", "0.05"]] {
                let out = dir + "/\(run.name)\(voxels.isEmpty ? "" : "-v").ply"
                let result = try Tool.run(["paint", capture + "/cloud.ply", capture, "-o", out, "--quiet"] + voxels)
                #expect(result.status == 0, "\(result.stderr)")
                guard run.name != "base" else { continue }
                try Self.expectMoved(out, of: dir + "/base\(voxels.isEmpty ? "" : "-v").ply", by: run.offset,
                                     tolerance: voxels.isEmpty ? 1e-4 : 0.05 / 16)
            }
        }
    }

    @Test func paintWritesAWideCloudsPointsWithEveryDigit() throws {
        let dir = temporaryDirectory()
        // The sample's points at UTM, and two more 4 km away: 8 km wide, where a float offset
        // from the centre would be off by up to 0.24 mm.
        let truth = try Self.vertices("Captures/sample/truth.ply")
        let offset = Self.moves[0]
        var points = truth.positions.map { $0 + offset }
        points += [offset + SIMD3(4_000.123456789, 0, 0), offset - SIMD3(4_000.987654321, 0, 0)]
        let codes = truth.colors.map { SIMD3<UInt8>($0) } + [[1, 2, 3], [4, 5, 6]]
        try Self.copyCapture("Captures/sample", to: dir + "/cap", movedBy: offset)
        try Self.writeDoublePLY(points, colors: codes, to: dir + "/wide.ply")
        let result = try Tool.run(["paint", dir + "/wide.ply", dir + "/cap", "-o", dir + "/painted.ply", "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        let painted = try Self.vertices(dir + "/painted.ply")
        #expect(painted.type == "float64")
        #expect(painted.positions == points, "every point where the file put it, to the last bit")
        let las = try Tool.run(["paint", dir + "/wide.ply", dir + "/cap", "-o", dir + "/painted.las", "--quiet"])
        #expect(las.status == 0, "\(las.stderr)")
        let back = try LASReader.readCloud(path: dir + "/painted.las")
        let worst = points.indices.map { i in
            let d = back.worldPosition(i) - points[i]
            return max(d.x.magnitude, d.y.magnitude, d.z.magnitude)
        }.max() ?? .infinity
        #expect(worst <= 0.5e-4 + 1e-9, "LAS keeps every point within half its 0.1 mm step: \(worst)")
    }

    /// Copies the version-1 capture at `source` to `destination` with every camera moved by
    /// `offset` (the translation of each column-major transform) and feature points dropped, or
    /// with `keepingPoints` moved too (each `.xyz` file rewritten in full precision).
    static func copyCapture(_ source: String, to destination: String, movedBy offset: SIMD3<Double>, keepingPoints: Bool = false) throws {
        try FileManager.default.copyItem(atPath: source, toPath: destination)
        let url = URL(fileURLWithPath: destination + "/capture.json")
        var manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        var frames = try #require(manifest["frames"] as? [[String: Any]])
        for i in frames.indices {
            var camera = try #require(frames[i]["camera"] as? [String: Any])
            var transform = try #require(camera["transform"] as? [Double])
            for axis in 0 ..< 3 { transform[12 + axis] += offset[axis] }
            camera["transform"] = transform
            frames[i]["camera"] = camera
            if keepingPoints, let name = frames[i]["points"] as? String {
                let path = destination + "/" + name
                let points = try XYZFormat.parse(Array(try Data(contentsOf: URL(fileURLWithPath: path))), file: name)
                let moved = points.map { FeaturePoint(world: $0.world + offset, id: $0.id) }
                try XYZFormat.format(moved).write(toFile: path, atomically: true, encoding: .utf8)
            } else {
                frames[i]["points"] = nil
            }
        }
        manifest["frames"] = frames
        try JSONSerialization.data(withJSONObject: manifest).write(to: url)
    }
}
