import Foundation
import PointPaint
import Testing
@testable import PointPaintViewer

/// `WebExport`'s site read back as the page reads it (the hierarchy's 32-byte records, the node
/// files' quantised positions and 8-bit colours), and its rules for the folder it writes into.
/// The page itself is checked in a browser by Tests/python/test_export_web.py.
@Suite struct WebExportTests {
    /// A fresh folder under the temporary directory, removed by `body`'s end.
    func scratch(_ body: (String) throws -> Void) throws {
        let path = NSTemporaryDirectory() + "pointpaint-web-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: path) }
        try body(path)
    }

    /// A node of the hierarchy as the page reads it.
    struct Record {
        var origin: SIMD3<Float>, size: Float, parent: Int32, count: Int, level: Int, childMask: UInt8
    }

    func records(_ data: Data) -> [Record] {
        let bytes = [UInt8](data)
        func u32(_ at: Int) -> UInt32 { (0 ..< 4).reduce(0) { $0 | UInt32(bytes[at + $1]) << (8 * UInt32($1)) } }
        return stride(from: 0, to: bytes.count, by: 32).map { at in
            Record(origin: SIMD3(Float(bitPattern: u32(at)), Float(bitPattern: u32(at + 4)), Float(bitPattern: u32(at + 8))),
                   size: Float(bitPattern: u32(at + 12)), parent: Int32(bitPattern: u32(at + 16)), count: Int(u32(at + 20)),
                   level: Int(bytes[at + 24]), childMask: bytes[at + 25])
        }
    }

    @Test func everyPointComesBackWithinItsNodesQuantisation() throws {
        var cloud = TestClouds.cloud(TestClouds.room(60_000, seed: 30))
        cloud.colors = cloud.colors.map(ColorMath.clampedToUnit)  // inside sRGB: no Display P3 layer
        cloud.counts = (0 ..< cloud.count).map { UInt32($0 % 7) }
        try scratch { root in
            let summary = try WebExport.write(cloud, to: root + "/site", options: WebExport.Options())
            let nodes = records(try Data(contentsOf: URL(fileURLWithPath: root + "/site/cloud/hierarchy.bin")))
            #expect(nodes.count == summary.nodes && nodes.count > 1)
            #expect(nodes[0].parent == -1 && nodes.dropFirst().allSatisfy { $0.parent >= 0 && Int($0.parent) < nodes.count })
            // Positions, colours and the views byte (the cloud has view counts), 10 bytes a point.
            #expect(Double(summary.nodeBytes) / Double(summary.points) == 10)
            // Node by node, in the octree's order of points (the desktop viewer's octree of the
            // same cloud): within half a quantisation step on each axis, the colour rounded to 8
            // bits, the views byte the heat map's position.
            let octree = PointOctree(positions: cloud.positions)
            #expect(octree.nodes.count == nodes.count)
            var worst: Float = 0, colourMisses = 0, heatMisses = 0, total = 0
            for (id, node) in nodes.enumerated() {
                let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: root + "/site/cloud/nodes/\(id).bin")))
                let n = node.count, step = node.size / 65_535
                #expect(bytes.count == n * 10 && octree.nodes[id].points.count == n)
                for (k, index) in octree.nodes[id].points.enumerated() where bytes.count == n * 10 {
                    let i = Int(index)
                    let q = (0 ..< 3).map { Float(UInt16(bytes[6 * k + 2 * $0]) | UInt16(bytes[6 * k + 2 * $0 + 1]) << 8) }
                    let p = node.origin + SIMD3(q[0], q[1], q[2]) * step
                    let d = (p - cloud.positions[i]) / step
                    worst = max(worst, abs(d.x), abs(d.y), abs(d.z))
                    let expected = SIMD3<UInt8>((cloud.colors[i].clamped(lowerBound: SIMD3(repeating: 0), upperBound: SIMD3(repeating: 1)) * 255).rounded(.toNearestOrAwayFromZero))
                    if SIMD3(bytes[6 * n + 3 * k], bytes[6 * n + 3 * k + 1], bytes[6 * n + 3 * k + 2]) != expected { colourMisses += 1 }
                    let t = QualityHeatMap.position(of: i, in: cloud, measure: .views)
                    if bytes[9 * n + k] != (t.isNaN ? 0 : 1 + UInt8((min(max(t, 0), 1) * 254).rounded())) { heatMisses += 1 }
                    total += 1
                }
            }
            #expect(total == cloud.count)
            #expect(worst <= 0.5 + 1e-2, "a point moved by \(worst) quantisation steps")
            #expect(colourMisses == 0 && heatMisses == 0)
        }
    }

    @Test func wideColourAddsADisplayP3LayerBeforeTheHeatMaps() throws {
        var cloud = TestClouds.cloud(TestClouds.room(3_000, seed: 31))
        cloud.colors[7] = SIMD3(1.093, -0.2267, -0.1501)  // Display P3's red as extended sRGB
        cloud.counts = (0 ..< cloud.count).map { UInt32($0 % 5) }
        let wide = cloud.hasWideColor
        #expect(wide)
        let toP3 = ColorConversion(from: .srgb, to: .displayP3)
        try scratch { root in
            let summary = try WebExport.write(cloud, to: root + "/site", options: WebExport.Options())
            // Positions, sRGB, Display P3 and the views byte: 13 bytes a point.
            #expect(summary.nodeBytes == 13 * summary.points)
            let metadata = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: root + "/site/cloud/metadata.json"))) as? [String: Any]
            #expect(metadata?["wideColour"] as? Bool == true)
            let octree = PointOctree(positions: cloud.positions)
            var p3Misses = 0, heatMisses = 0, sawRed = false
            for (id, node) in octree.nodes.enumerated() {
                let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: root + "/site/cloud/nodes/\(id).bin")))
                let n = node.points.count
                #expect(bytes.count == 13 * n)
                guard bytes.count == 13 * n else { continue }
                for (k, index) in node.points.enumerated() {
                    let i = Int(index)
                    let p3 = toP3.encoded(cloud.colors[i]).clamped(lowerBound: SIMD3(repeating: 0), upperBound: SIMD3(repeating: 1))
                    let expected = SIMD3<UInt8>((p3 * 255).rounded(.toNearestOrAwayFromZero))
                    let found = SIMD3(bytes[9 * n + 3 * k], bytes[9 * n + 3 * k + 1], bytes[9 * n + 3 * k + 2])
                    if found != expected { p3Misses += 1 }
                    if i == 7 { sawRed = found == SIMD3(255, 0, 0) && SIMD3(bytes[6 * n + 3 * k], bytes[6 * n + 3 * k + 1], bytes[6 * n + 3 * k + 2]) == SIMD3(255, 0, 0) }
                    let t = QualityHeatMap.position(of: i, in: cloud, measure: .views)
                    if bytes[12 * n + k] != (t.isNaN ? 0 : 1 + UInt8((min(max(t, 0), 1) * 254).rounded())) { heatMisses += 1 }
                }
            }
            #expect(p3Misses == 0 && heatMisses == 0 && sawRed)
        }
    }

    @Test func aCloudInsideSRGBHasNoDisplayP3Layer() throws {
        var cloud = TestClouds.cloud(TestClouds.room(2_000, seed: 32))
        cloud.colors = cloud.colors.map(ColorMath.clampedToUnit)
        let wide = cloud.hasWideColor
        #expect(!wide)
        try scratch { root in
            let summary = try WebExport.write(cloud, to: root + "/site", options: WebExport.Options())
            #expect(summary.nodeBytes == 9 * summary.points)
            let metadata = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: root + "/site/cloud/metadata.json"))) as? [String: Any]
            #expect(metadata?["wideColour"] as? Bool == false)
        }
    }

    @Test func aForeignFolderIsRefusedAndAPreviousExportReplaced() throws {
        let cloud = TestClouds.cloud(TestClouds.room(2_000))
        try scratch { root in
            let foreign = root + "/photos"
            try FileManager.default.createDirectory(atPath: foreign, withIntermediateDirectories: true)
            try Data("x".utf8).write(to: URL(fileURLWithPath: foreign + "/a.jpg"))
            #expect {
                try WebExport.write(cloud, to: foreign, options: WebExport.Options())
            } throws: { error in
                let e = error as? PointPaintError
                return e?.kind == .malformed && e?.description.contains("photos") == true && e?.description.contains("1 entry") == true
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: foreign) == ["a.jpg"])
            // A previous export is replaced whole, and nothing is left beside it.
            var options = WebExport.Options()
            options.title = "first"
            _ = try WebExport.write(cloud, to: root + "/site", options: options)
            options.title = "second"
            _ = try WebExport.write(TestClouds.cloud(TestClouds.room(500)), to: root + "/site", options: options)
            let html = try String(contentsOfFile: root + "/site/index.html", encoding: .utf8)
            #expect(html.contains("second") && !html.contains("first"))
            #expect(try FileManager.default.contentsOfDirectory(atPath: root).sorted() == ["photos", "site"])
        }
    }

    /// The id of a process that ran and has ended (`/bin/true`).
    func deadProcess() throws -> Int32 {
        let finished = Process()
        finished.executableURL = URL(fileURLWithPath: "/bin/true")
        try finished.run()
        finished.waitUntilExit()
        return finished.processIdentifier
    }

    @Test func aReplacementKilledBetweenItsRenamesIsFinishedByTheNextExport() throws {
        let cloud = TestClouds.cloud(TestClouds.room(1_000))
        try scratch { root in
            // What a kill between the two renames leaves: no site, and beside it the complete new
            // site and the previous one, named for a process that no longer runs.
            var options = WebExport.Options()
            for title in ["new", "old"] {
                options.title = title
                _ = try WebExport.write(cloud, to: root + "/\(title)", options: options)
            }
            let dead = try deadProcess()
            #expect(rename(root + "/new", root + "/.site.new-\(dead)-7") == 0 && rename(root + "/old", root + "/.site.old-\(dead)-7") == 0)
            // A leftover of a process still running (init) is left alone.
            try FileManager.default.createDirectory(atPath: root + "/.site.old-1-9", withIntermediateDirectories: false)
            try WebExport.checkDestination(root + "/site")
            let html = try String(contentsOfFile: root + "/site/index.html", encoding: .utf8)
            #expect(html.contains("<title>new</title>"))
            #expect(try FileManager.default.contentsOfDirectory(atPath: root).sorted() == [".site.old-1-9", "site"])
            // Killed after both renames: the site stands, and the previous one beside it is removed.
            _ = try WebExport.write(cloud, to: root + "/old", options: options)
            #expect(rename(root + "/old", root + "/.site.old-\(dead)-8") == 0)
            options.title = "newer"
            _ = try WebExport.write(cloud, to: root + "/site", options: options)
            #expect(try FileManager.default.contentsOfDirectory(atPath: root).sorted() == [".site.old-1-9", "site"])
            #expect(try String(contentsOfFile: root + "/site/index.html", encoding: .utf8).contains("newer"))
        }
    }

    @Test func aCloudWithoutAFinitePointIsOneError() throws {
        let cloud = TestClouds.cloud([SIMD3(.nan, 0, 0)])
        try scratch { root in
            #expect {
                try WebExport.write(cloud, to: root + "/site", options: WebExport.Options())
            } throws: { error in
                (error as? PointPaintError)?.kind == .missing
            }
            #expect(!FileManager.default.fileExists(atPath: root + "/site"))
        }
    }
}
