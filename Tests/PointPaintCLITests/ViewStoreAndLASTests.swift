import Foundation
import PointPaint
import Testing

/// `view` and `info` on store and LAS files: the same voxels as the PLY file of the same replay.
/// Screenshots need a display: run under `xvfb-run -a`.
@Suite("view on stores and LAS files (needs a display: xvfb-run)", .serialized)
struct ViewStoreAndLASTests {
    @Test("a store and a LAS, LAZ or COPC file render as the PLY of the same replay")
    func sameRender() throws {
        try ViewCommandTests.requireDisplay()
        let (dir, capture) = try StoreCommandsTests.capture()
        for output in ["x.ply", "x.las", "x.ppstore", "x.laz", "x.copc.laz"] {
            let extra = output.hasSuffix(".ply") ? ["--float-colors", "always"] : []
            try StoreCommandsTests.run(["replay", capture, "-o", dir + "/" + output, "--voxel-size", "0.05", "--quiet"] + extra)
            try StoreCommandsTests.run(["view", dir + "/" + output, "--screenshot", dir + "/\(output).png", "--size", "96x64",
                                        "--background", "black", "--strategy", "flat", "--yaw", "30", "--pitch", "20"])
        }
        let ply = try PNGImage(contentsOf: dir + "/x.ply.png")
        let store = try PNGImage(contentsOf: dir + "/x.ppstore.png")
        let las = try PNGImage(contentsOf: dir + "/x.las.png")
        #expect(ViewCommandTests.foreground(ply) > 100)
        #expect(store.samples8 == ply.samples8, "the store holds the PLY's positions and exact colours")
        // LAS colours are 16-bit codes of the same colours: at most a level apart once drawn.
        #expect(ViewCommandTests.foreground(las) == ViewCommandTests.foreground(ply))
        #expect(zip(las.samples8, ply.samples8).allSatisfy { abs(Int($0) - Int($1)) <= 1 })
        // LAZ holds the LAS file's records; COPC the same records in octree order.
        #expect(try PNGImage(contentsOf: dir + "/x.laz.png").samples8 == las.samples8)
        #expect(try PNGImage(contentsOf: dir + "/x.copc.laz.png").samples8 == las.samples8)
        let info = try StoreCommandsTests.run(["info", dir + "/x.las"])
        #expect(info.stdout.contains("LAS 1.4, point format 7") && info.stdout.contains("voxel size: 0.05"))
    }

    @Test("the views heat map of a store shows its sample counts; a PLY without views says it has none, and differs")
    func viewsHeatMap() throws {
        try ViewCommandTests.requireDisplay()
        let (dir, capture) = try StoreCommandsTests.capture()
        try StoreCommandsTests.run(["replay", capture, "-o", dir + "/x.ppstore", "--voxel-size", "0.05", "--quiet"])
        try StoreCommandsTests.run(["replay", capture, "-o", dir + "/x.ply", "--voxel-size", "0.05", "--quiet"])
        var lines: [String: String] = [:]
        for input in ["x.ppstore", "x.ply"] {
            let run = try StoreCommandsTests.run(["view", dir + "/" + input, "--screenshot", dir + "/\(input).png", "--size", "96x64",
                                                  "--background", "black", "--strategy", "views", "--yaw", "30", "--pitch", "20"])
            lines[input] = run.stdout
        }
        #expect(lines["x.ppstore"]?.contains("views: observations a voxel") == true)
        #expect(lines["x.ppstore"]?.contains("no view counts") == false, "a store keeps each voxel's sample count")
        #expect(lines["x.ply"]?.contains("no view counts") == true, "replay's PLY has no views property")
        let store = try PNGImage(contentsOf: dir + "/x.ppstore.png"), ply = try PNGImage(contentsOf: dir + "/x.ply.png")
        #expect(ViewCommandTests.foreground(store) == ViewCommandTests.foreground(ply), "the same voxels drawn")
        #expect(store.samples8 != ply.samples8, "coloured by their counts, not all as one")
    }
}
