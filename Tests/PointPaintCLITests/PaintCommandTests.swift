import Foundation
import Testing
import PointPaint

/// `pointpaint paint` as a person runs it: a summary like replay's, a PLY our reader reads back,
/// and one clear line with a non-zero exit for a cloud the capture does not see or an empty one.
@Suite struct PaintCommandTests {
    @Test func paintsAnotherToolsCloudAndRefusesOneTheCaptureDoesNotSee() throws {
        let dir = temporaryDirectory()
        let capture = dir + "/cap"
        try Tool.synth(["-o", capture, "--frames", "4", "--size", "96x72", "--points", "80", "--noise", "0"])
        let result = try Tool.run(["paint", capture + "/truth.ply", capture, "-o", dir + "/painted.ply", "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        let truth = try PLYReader.readCloud(path: capture + "/truth.ply")
        #expect(result.stdout.hasPrefix("painted \(truth.count) points from 4 frames"), "\(result.stdout)")
        #expect(result.stdout.contains("frames tested 4 against a z-buffer"), "\(result.stdout)")
        #expect(result.stdout.contains("wrote \(truth.count) vertices to \(dir)/painted.ply"), "\(result.stdout)")
        let painted = try PLYReader.readCloud(path: dir + "/painted.ply")
        #expect(painted.count == truth.count && painted.positions == truth.positions)

        let evened = try Tool.run(["paint", capture + "/truth.ply", capture, "-o", dir + "/evened.ply", "--quiet", "--exposure", "auto"])
        #expect(evened.status == 0, "\(evened.stderr)")
        #expect(evened.stdout.contains("\nexposure: gains ") && evened.stdout.contains(", 0 of 4 frames adjusted by more than 1%, 0 clamped"), "no drift, no gain: \(evened.stdout)")

        // The same points 1 km away: no frame sees them.
        let far = VoxelCloud(voxelSize: nil, positions: painted.positions.map { $0 + SIMD3(1000, 0, 0) }, colors: painted.colors)
        try PLYWriter().write(far, to: dir + "/far.ply")
        let refused = try Tool.run(["paint", dir + "/far.ply", capture, "-o", dir + "/none.ply", "--quiet"])
        #expect(refused.status != 0)
        let lines = refused.stderr.split(separator: "\n").filter { !$0.isEmpty }
        #expect(lines.count == 1 && lines[0].contains("far.ply") && lines[0].contains("different coordinate frames"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/none.ply"))

        try PLYWriter().write(VoxelCloud(voxelSize: nil, positions: [], colors: []), to: dir + "/empty.ply")
        let empty = try Tool.run(["paint", dir + "/empty.ply", capture, "-o", dir + "/none.ply", "--quiet"])
        #expect(empty.status != 0 && empty.stderr.contains("empty cloud"), "\(empty.stderr)")

        // Voxels go to a store or LAS too: the store holds exactly the voxels the PLY lists.
        let voxelPLY = try Tool.run(["paint", capture + "/truth.ply", capture, "-o", dir + "/v.ply", "--voxel-size", "0.05", "--quiet"])
        let voxelStore = try Tool.run(["paint", capture + "/truth.ply", capture, "-o", dir + "/v.ppstore", "--voxel-size", "0.05", "--quiet"])
        let voxelLAS = try Tool.run(["paint", capture + "/truth.ply", capture, "-o", dir + "/v.las", "--voxel-size", "0.05", "--quiet"])
        #expect(voxelPLY.status == 0 && voxelStore.status == 0 && voxelLAS.status == 0, "\(voxelStore.stderr) \(voxelLAS.stderr)")
        let fromPLY = try PLYReader.readCloud(path: dir + "/v.ply")
        let fromStore = try StoreFileReader(path: dir + "/v.ppstore").cloud()
        #expect(fromStore.count == fromPLY.count && fromStore.count > 0)
        #expect(Set(fromStore.positions.map { [$0.x, $0.y, $0.z] }) == Set(fromPLY.positions.map { [$0.x, $0.y, $0.z] }))
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/v.las")).prefix(4) == Data("LASF".utf8))

        // One record a point as LAS too: the same points (within the 0.1 mm step) and colours.
        let pointsLAS = try Tool.run(["paint", capture + "/truth.ply", capture, "-o", dir + "/p.las", "--quiet"])
        #expect(pointsLAS.status == 0, "\(pointsLAS.stderr)")
        let las = try LASReader.readCloud(path: dir + "/p.las")
        #expect(las.count == painted.count)
        var worstPosition: Float = 0, worstColour: Float = 0
        for i in 0 ..< min(las.count, painted.count) {
            let dp = las.positions[i] - painted.positions[i], dc = las.colors[i] - painted.colors[i]
            worstPosition = max(worstPosition, Swift.abs(dp.x), Swift.abs(dp.y), Swift.abs(dp.z))
            worstColour = max(worstColour, Swift.abs(dc.x), Swift.abs(dc.y), Swift.abs(dc.z))
        }
        #expect(worstPosition <= 0.00006 && worstColour <= 1.0 / 255, "positions within \(worstPosition) m, colours within \(worstColour)")

        // Without voxels a store, and anywhere an unknown extension, is one line and no file.
        for name in ["painted.ppstore", "painted.txt"] {
            let other = try Tool.run(["paint", capture + "/truth.ply", capture, "-o", dir + "/" + name, "--quiet"])
            let otherLines = other.stderr.split(separator: "\n").filter { !$0.isEmpty && !$0.hasPrefix("Usage") && !$0.hasPrefix("  See") }
            #expect(other.status != 0 && otherLines.count == 1 && otherLines[0].contains(name), "\(other.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir + "/" + name))
        }
    }

    /// Voxel stores of two halves of a capture merge to exactly the store of the whole (sums are
    /// exact; exposure off; unseen points dropped, since a kept one's own colour would count in
    /// each half it is unseen in); per point, observations are weighted unless --weights off, and what
    /// voxels cannot keep is one line.
    @Test func paintedHalvesMergeToTheWholeAndWeightsAreOptions() throws {
        let dir = temporaryDirectory()
        let capture = dir + "/cap"
        try Tool.synth(["-o", capture, "--frames", "6", "--size", "96x72", "--points", "80", "--noise", "0"])
        let cloud = capture + "/truth.ply"
        for (name, frames) in [("whole", "0..<6"), ("a", "0..<3"), ("b", "3..<6")] {
            let run = try Tool.run(["paint", cloud, capture, "-o", "\(dir)/\(name).ppstore", "--voxel-size", "0.05", "--frames", frames, "--unseen", "drop", "--quiet"])
            #expect(run.status == 0, "\(run.stderr)")
        }
        let merge = try Tool.run(["merge", dir + "/a.ppstore", dir + "/b.ppstore", "-o", dir + "/merged.ppstore"])
        #expect(merge.status == 0, "\(merge.stderr)")
        func voxels(_ path: String) throws -> [StoredVoxel] {
            let reader = try StoreFileReader(path: path)
            var all: [StoredVoxel] = []
            while let chunk = try reader.nextChunk() { all += chunk }
            return all
        }
        let whole = try voxels(dir + "/whole.ppstore"), merged = try voxels(dir + "/merged.ppstore")
        #expect(!whole.isEmpty && whole == merged, "the same voxels, sums, weights, counts and frames")
        #expect(try StoreFileReader(path: dir + "/whole.ppstore").info.contents == [.weights], "weighted by default: Σw kept")
        #expect(whole.allSatisfy { $0.weight >= UInt64($0.count) && $0.weight <= 255 * UInt64($0.count) })

        let weighted = try Tool.run(["paint", cloud, capture, "-o", dir + "/w.ply", "--quiet"])
        let plain = try Tool.run(["paint", cloud, capture, "-o", dir + "/p.ply", "--quiet", "--weights", "off"])
        let best = try Tool.run(["paint", cloud, capture, "-o", dir + "/b.ply", "--quiet", "--accumulate", "best"])
        #expect(weighted.status == 0 && plain.status == 0 && best.status == 0, "\(weighted.stderr) \(best.stderr)")
        #expect(weighted.stdout.contains("; observations weighted (mean weight 0.") && !plain.stdout.contains("weighted"), "\(weighted.stdout)")
        let weightedColors = try PLYReader.readCloud(path: dir + "/w.ply").colors, plainColors = try PLYReader.readCloud(path: dir + "/p.ply").colors
        #expect(weightedColors.count == plainColors.count && weightedColors != plainColors)

        // Weighted voxels with their spread go to a store (version 2) as they go to PLY: the same
        // colours, views and spreads read back.
        let spread = try Tool.run(["paint", cloud, capture, "-o", dir + "/s.ppstore", "--quiet", "--voxel-size", "0.05", "--quality-properties"])
        let spreadPLY = try Tool.run(["paint", cloud, capture, "-o", dir + "/s.ply", "--quiet", "--voxel-size", "0.05", "--quality-properties", "--float-colors", "always"])
        #expect(spread.status == 0 && spreadPLY.status == 0, "\(spread.stderr) \(spreadPLY.stderr)")
        let fromStore = try StoreFileReader(path: dir + "/s.ppstore").cloud(), fromPLY = try PLYReader.readCloud(path: dir + "/s.ply")
        #expect(fromStore.count == fromPLY.count && fromStore.count > 10)
        var byPosition: [SIMD3<Float>: Int] = [:]
        for (i, p) in fromPLY.positions.enumerated() { byPosition[p] = i }
        for i in 0 ..< fromStore.count {
            guard let j = byPosition[fromStore.positions[i]] else { Issue.record("voxel \(fromStore.positions[i]) missing from the PLY"); break }
            let d = fromStore.colors[i] - fromPLY.colors[j]
            #expect(max(abs(d.x), abs(d.y), abs(d.z)) < 2e-6)
            // A voxel no frame saw: 0 views in the PLY, its points' own colours as samples in the store.
            #expect(fromStore.counts[i] == fromPLY.counts[j] || fromPLY.counts[j] == 0)
            #expect(abs(try #require(fromStore.colourSD)[i] - (try #require(fromPLY.colourSD)[j])) < 2e-6)
        }
        let info = try Tool.run(["info", dir + "/s.ppstore"])
        #expect(info.stdout.contains("voxels keep weight sums and squares"), "\(info.stdout)")

        // Best voxels go to PLY (with quality properties) or LAS, not to a store.
        let voxels = try Tool.run(["paint", cloud, capture, "-o", dir + "/bv.ply", "--quiet", "--voxel-size", "0.05", "--accumulate", "best", "--quality-properties"])
        #expect(voxels.status == 0 && voxels.stdout.contains("observations weighted"), "\(voxels.stderr)")
        let bestVoxels = try PLYReader.read(path: dir + "/bv.ply")
        #expect(bestVoxels[element: "vertex"]?[property: "views"] != nil && bestVoxels[element: "vertex"]?[property: "colour_sd"] != nil)
        for (options, expected) in [(["-o", dir + "/x.ppstore", "--voxel-size", "0.05", "--accumulate", "best"], "not one best observation"),
                                    (["-o", dir + "/x.ppstore", "--voxel-size", "0.05", "--weights", "on", "--accumulate", "latest"], "of mean voxels only"),
                                    (["-o", dir + "/x.las", "--voxel-size", "0.05", "--quality-properties"], "not LAS ones"),
                                    (["-o", dir + "/x.ply", "--weights", "off", "--accumulate", "best"], "it needs --weights on")] {
            let refused = try Tool.run(["paint", cloud, capture, "--quiet"] + options)
            let lines = refused.stderr.split(separator: "\n").filter { !$0.isEmpty && !$0.hasPrefix("Usage") && !$0.hasPrefix("  See") }
            #expect(refused.status != 0 && lines.count == 1 && lines[0].contains(expected), "\(options): \(refused.stderr)")
        }
    }
}
