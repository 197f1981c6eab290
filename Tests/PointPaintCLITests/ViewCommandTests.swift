import Foundation
import PointPaint
import Testing

/// `pointpaint view` run as a person would. Screenshots open a hidden window, so these need a
/// display: run them under `xvfb-run -a` (they fail with a clear message otherwise).
@Suite("view command (needs a display: xvfb-run)", .serialized)
struct ViewCommandTests {
    static func requireDisplay() throws {
        let environment = ProcessInfo.processInfo.environment
        try #require(environment["DISPLAY"] != nil || environment["WAYLAND_DISPLAY"] != nil,
                     "no display (DISPLAY is unset): run the view tests under xvfb-run -a -s \"-noreset\"")
    }

    /// The pixels of `image` that differ from its top-left corner (the background).
    static func foreground(_ image: PNGImage) -> Int {
        let c = image.channels
        let background = Array(image.samples8[0 ..< c])
        return stride(from: 0, to: image.samples8.count, by: c).count { Array(image.samples8[$0 ..< $0 + c]) != background }
    }

    @Test("view CAPTURE --screenshot replays the capture in full and renders the cloud")
    func captureScreenshot() throws {
        try Self.requireDisplay()
        let dir = temporaryDirectory()
        let capture = dir + "/cap"
        try Tool.synth(["-o", capture, "--frames", "4", "--size", "160x120", "--points", "150"])
        let png = dir + "/shot.png"
        let view = try Tool.run(["view", capture, "--voxel-size", "0.05", "--screenshot", png, "--size", "160x120", "--background", "black"])
        #expect(view.status == 0, "\(view.stderr)")
        #expect(view.stdout.contains("replayed 4 frames"), "\(view.stdout)")
        #expect(view.stdout.contains("wrote \(png) (160x120"))
        let image = try PNGImage(contentsOf: png)
        #expect(image.width == 160 && image.height == 120)
        #expect(Array(image.samples8[0 ..< 3]) == [0, 0, 0])
        #expect(Self.foreground(image) > 300, "the painted cloud should show: \(Self.foreground(image)) pixels")

        // --frames picks fewer frames; the replay options are refused for a PLY file.
        let two = try Tool.run(["view", capture, "--frames", "..<2", "--screenshot", dir + "/two.png", "--size", "64x48"])
        #expect(two.status == 0 && two.stdout.contains("replayed 2 frames"), "\(two.stdout) \(two.stderr)")
        let replay = try Tool.run(["replay", capture, "-o", dir + "/cloud.ply", "--quiet"])
        #expect(replay.status == 0)
        let refused = try Tool.run(["view", dir + "/cloud.ply", "--voxel-size", "0.1", "--screenshot", dir + "/x.png"])
        #expect(refused.status != 0 && refused.stderr.contains("--voxel-size applies to a capture"), "\(refused.stderr)")
    }

    @Test("view on a missing capture or one without frames says so, without a window")
    func badCapture() throws {
        let dir = temporaryDirectory()
        let missing = try Tool.run(["view", dir + "/nothing-here/", "--screenshot", dir + "/x.png"])
        #expect(missing.status != 0)
        #expect(!missing.stderr.isEmpty && !FileManager.default.fileExists(atPath: dir + "/x.png"))
        let capture = dir + "/cap"
        try Tool.synth(["-o", capture, "--frames", "2", "--size", "32x16", "--points", "10"])
        let noFrames = try Tool.run(["view", capture, "--frames", "5..9", "--screenshot", dir + "/x.png"])
        #expect(noFrames.status != 0 && noFrames.stderr.contains("--frames: no frames selected: the capture has 2"), "\(noFrames.stderr)")
        #expect(noFrames.stderr.split(separator: "\n").count == 1, "one line, no usage: \(noFrames.stderr)")
    }

    @Test("view on a PLY with NaN and infinite coordinates and no voxel size renders, with and without --box-size",
          arguments: [[], ["--box-size", "0.1"]])
    func nonFinitePLY(extra: [String]) throws {
        try Self.requireDisplay()
        let dir = temporaryDirectory()
        var rows = ["nan 0 0 255 0 0", "0 inf 0 255 0 0", "-inf 0 nan 255 0 0"]
        for i in 0 ..< 25 { rows.append("\(Double(i % 5) * 0.1) \(Double(i / 5) * 0.1) 0 255 0 0") }
        let header = ["ply", "format ascii 1.0", "element vertex \(rows.count)", "property float x", "property float y",
                      "property float z", "property uchar red", "property uchar green", "property uchar blue", "end_header"]
        let ply = dir + "/nan.ply"
        try (header + rows).joined(separator: "\n").appending("\n").write(toFile: ply, atomically: true, encoding: .utf8)
        let png = dir + "/nan.png"
        let view = try Tool.run(["view", ply, "--screenshot", png, "--size", "96x64", "--background", "black",
                                "--strategy", "flat", "--yaw", "0", "--pitch", "0"] + extra)
        #expect(view.status == 0, "\(view.stderr)")
        #expect(view.stderr.contains("3 of 28 points have a non-finite coordinate"), "\(view.stderr)")
        #expect(view.stdout.contains("25 voxels"))
        let image = try PNGImage(contentsOf: png)
        let centre = (image.height / 2 * image.width + image.width / 2) * image.channels
        #expect(Array(image.samples8[centre ..< centre + 3]) == [255, 0, 0])
    }

    @Test("view --budget draws a PLY past it through the level of detail and says so; --edl off leaves the outlines out")
    func budgetAndEyeDomeLighting() throws {
        try Self.requireDisplay()
        let dir = temporaryDirectory()
        var rows: [String] = []
        for i in 0 ..< 4_900 { rows.append("\(Double(i % 70) * 0.02) \(Double(i / 70) * 0.02) \(Double(i % 7) * 0.05) 200 200 200") }
        let header = ["ply", "format ascii 1.0", "comment voxel_size 0.02", "element vertex \(rows.count)", "property float x",
                      "property float y", "property float z", "property uchar red", "property uchar green", "property uchar blue", "end_header"]
        let ply = dir + "/grid.ply"
        try (header + rows).joined(separator: "\n").appending("\n").write(toFile: ply, atomically: true, encoding: .utf8)
        var images: [PNGImage] = []
        for (name, extra) in [("whole", [String]()), ("budget", ["--budget", "1000"]), ("plain", ["--edl", "off"])] {
            let png = dir + "/\(name).png"
            let view = try Tool.run(["view", ply, "--screenshot", png, "--size", "96x64", "--strategy", "points"] + extra)
            #expect(view.status == 0, "\(view.stderr)")
            #expect(view.stdout.contains("4900 voxels, points"), "\(view.stdout)")
            #expect(view.stdout.contains("drawn by level of detail within the 1000-point budget") == (name == "budget"), "\(view.stdout)")
            images.append(try PNGImage(contentsOf: png))
        }
        #expect(images[0].samples8 != images[1].samples8 && images[0].samples8 != images[2].samples8)
        let refused = try Tool.run(["view", ply, "--screenshot", dir + "/x.png", "--budget", "0"])
        #expect(refused.status != 0 && refused.stderr.contains("--budget must be at least 1"), "\(refused.stderr)")
        let badSwitch = try Tool.run(["view", ply, "--screenshot", dir + "/x.png", "--edl", "maybe"])
        #expect(badSwitch.status != 0 && badSwitch.stderr.contains("--edl"), "\(badSwitch.stderr)")
    }

    @Test("a cloud in map coordinates renders exactly as the same cloud at the origin")
    func mapCoordinatesRenderAsAtTheOrigin() throws {
        try Self.requireDisplay()
        let dir = temporaryDirectory()
        var random = SplitMix64(seed: 5)
        // Whole 1/1024 m, as survey coordinates come in whole millimetres or so: moved by whole
        // metres, every coordinate stays exact.
        let local = (0 ..< 3_000).map { _ in SIMD3((0 ..< 3).map { _ in Double(Int.random(in: -1536 ..< 1536, using: &random)) / 1024 }) }
        let colors = local.map { p in SIMD3<UInt8>(SIMD3<Double>(p + 1.5) * 80) }
        var shots: [[UInt8]] = []
        for (name, offset) in [("base", SIMD3<Double>.zero), ("utm", SIMD3(500_000, 5_400_000, 120))] {
            try MapCoordinatesTests.writeDoublePLY(local.map { $0 + offset }, colors: colors, to: dir + "/\(name).ply")
            let png = dir + "/\(name).png"
            let result = try Tool.run(["view", dir + "/\(name).ply", "--screenshot", png, "--size", "320x240", "--yaw", "30"])
            #expect(result.status == 0, "\(result.stderr)")
            let image = try PNGImage.read(path: png).image
            #expect(Self.foreground(image) > 1_000, "\(name): the cloud is drawn")
            shots.append(image.samples8)
        }
        #expect(shots[0] == shots[1], "the cloud at UTM looks exactly like the cloud at the origin")
    }
}
