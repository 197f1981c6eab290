import Foundation
import PointPaint
import Testing
@testable import PointPaintViewer

/// `WebNodeFiles`: the node files written beside an octree's build, and a write that fails.
@Suite struct WebNodeFilesTests {
    @Test func everyNodeHandedOverIsWrittenAsItsEncoding() throws {
        let cloud = TestClouds.cloud(TestClouds.room(60_000, seed: 4))
        let layers = WebNodeFile.Layers(cloud: cloud)
        let folder = NSTemporaryDirectory() + "pointpaint-nodes-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let files = WebNodeFiles(cloud: cloud, layers: layers, folder: folder)
        let octree = PointOctree(positions: cloud.positions) { id, node in files.add(id, node) }
        let sizes = try files.finish()
        #expect(octree.nodes.count > 2 && sizes.count == octree.nodes.count)
        for (id, node) in octree.nodes.enumerated() {
            var expected = [UInt8](repeating: 0, count: node.points.count * layers.stride)
            expected.withUnsafeMutableBytes { WebNodeFile.encode(node, of: cloud, layers: layers, into: $0) }
            let written = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/\(id).bin")))
            #expect(written == expected && sizes[id] == expected.count, "node \(id)")
        }
    }

    @Test func aFileThatCannotBeWrittenIsTheErrorFinishThrows() throws {
        let cloud = TestClouds.cloud(TestClouds.room(40_000, seed: 5))
        let missing = NSTemporaryDirectory() + "pointpaint-absent-\(UUID().uuidString)/nodes"
        let files = WebNodeFiles(cloud: cloud, layers: WebNodeFile.Layers(cloud: cloud), folder: missing)
        _ = PointOctree(positions: cloud.positions) { id, node in files.add(id, node) }
        #expect {
            _ = try files.finish()
        } throws: { error in
            let message = "\(error)"
            return message.contains(missing) && message.contains("cannot create")
        }
        #expect(!FileManager.default.fileExists(atPath: missing))
    }
}
