import Foundation
import Testing
import PointPaint

/// `info`, `replay`, `frame`, `sample` and `view` on app recordings, run as a person would:
/// every synthesizer layout is detected and summarised, `--source-format` forces a format, and
/// what goes wrong is one line.
@Suite struct SourceCommandsTests {
    /// A layout written by `synth --layout` into a fresh directory:
    /// three 160×120 frames, 64×48 depth maps.
    static func layout(_ name: String, in dir: String) throws -> String {
        let path = dir + (name == "record3d" ? "/scan.r3d" : "/\(name)")
        try Tool.synth(["-o", path, "--layout", name, "--frames", "3", "--size", "160x120", "--points", "10"])
        return path
    }

    static let layouts: [(name: String, format: String, note: String)] = [
        ("stray", "Stray Scanner", "poses: camera-to-world with OpenCV camera axes, turned to ARKit's (R·diag(1, −1, −1)); quaternion x, y, z, w"),
        ("record3d", "Record3D", "intrinsics: K (column-major)"),
        ("polycam", "Polycam raw data", "poses: t_00 … t_23, a row-major 3×4 camera-to-world matrix with ARKit camera axes, used as stored"),
        ("scanner-app", "3D Scanner App export", "poses: cameraPoseARFrame, camera-to-world row by row with ARKit camera axes, used as stored"),
        ("nerfstudio", "nerfstudio transforms.json", "poses: transform_matrix, camera-to-world with OpenGL camera axes (ARKit's), used as stored"),
    ]

    @Test(arguments: layouts)
    func infoNamesTheFormatAndHowItWasRead(layout: (name: String, format: String, note: String)) throws {
        let dir = temporaryDirectory()
        let path = try Self.layout(layout.name, in: dir)
        let info = try Tool.run(["info", path])
        #expect(info.status == 0, "\(info.stderr)")
        let lines = info.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("capture:      \(path)") && lines.contains("format:       \(layout.format)"), "\(info.stdout)")
        #expect(lines.contains { $0.hasPrefix("frames:       3, ") && $0.contains(" s") && $0.contains(", times ") }, "\(info.stdout)")
        let size = layout.name == "record3d" ? "120x160" : "160x120", depth = layout.name == "record3d" ? "48x64" : "64x48"
        #expect(lines.contains { $0.hasPrefix("resolution:   \(size), JPEG files") }, "\(info.stdout)")
        #expect(lines.contains("colour:       full range, bt601 matrix, srgb primaries, center-sited chroma"))
        #expect(lines.contains { $0.hasPrefix("depth:        \(depth) ") } && lines.contains("points:       from depth (no feature points recorded)"),
                "\(info.stdout)")
        #expect(lines.contains("notes:") && lines.contains { $0.hasPrefix("  - \(layout.note)") }, "\(info.stdout)")
    }

    @Test func infoOnAPointPaintCaptureNamesItsFormatAndNotes() throws {
        let dir = temporaryDirectory()
        let v1 = try Self.layout("v1", in: dir)
        let info = try Tool.run(["info", v1])
        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.stdout.contains("\nformat:       PointPaint capture (format v1)\n"), "\(info.stdout)")
        #expect(info.stdout.contains("\n  - poses: camera-to-world with ARKit camera axes, intrinsics in pixels of the image, used as stored (format v1)\n"))
        #expect(!info.stdout.contains("\ndepth:") && info.stdout.contains("\n  - depth: none\n"))
    }

    @Test func replayFrameAndSampleReadARecording() throws {
        let dir = temporaryDirectory()
        let stray = try Self.layout("stray", in: dir)
        let replay = try Tool.run(["replay", stray, "-o", dir + "/s.ply", "--quiet", "--voxel-size", "0.02"])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdout.contains("replayed 3 frames") && replay.stdout.contains("; points from depth in 3 frames: "), "\(replay.stdout)")
        let strided = try Tool.run(["replay", stray, "-o", dir + "/t.ply", "--quiet", "--depth-stride", "2", "--min-confidence", "low", "--max-depth", "3"])
        #expect(strided.status == 0 && strided.stdout.contains(" of 2304 depth pixels ("), "\(strided.stdout) \(strided.stderr)")

        let frame = try Tool.run(["frame", stray, "--index", "2", "-o", dir + "/f.png"])
        #expect(frame.status == 0 && frame.stdout.contains("frame 2 of \(stray), 160x120 sRGB"), "\(frame.stdout) \(frame.stderr)")
        let png = try PNGImage(contentsOf: dir + "/f.png")
        #expect(png.width == 160 && png.height == 120)
        let sample = try Tool.run(["sample", stray, "--index", "1", "--at", "0.5,0.5", "--json"])
        #expect(sample.status == 0 && sample.stdout.contains("\"rgb8\""), "\(sample.stdout) \(sample.stderr)")

        let index = try Tool.run(["frame", stray, "--index", "3", "-o", dir + "/g.png"])
        #expect(index.status != 0 && index.stderr.contains("expected a frame index from 0 to 2, found 3"), "\(index.stderr)")
    }

    @Test func sourceFormatForcesAFormat() throws {
        let dir = temporaryDirectory()
        let stray = try Self.layout("stray", in: dir)
        for command in [["info", stray], ["replay", stray, "-o", dir + "/x.ply"], ["frame", stray, "-o", dir + "/x.png"],
                        ["sample", stray, "--at", "0.5,0.5"]] {
            let forced = try Tool.run(command + ["--source-format", "polycam"])
            #expect(forced.status != 0 && forced.stderr.contains("keyframes"), "\(command): \(forced.stderr)")
            #expect(CaptureCommandsTests.errorLines(forced).count == 1, "\(forced.stderr)")
            #expect(try Tool.run(command + ["--source-format", "stray"]).status == 0)
        }
        let unknown = try Tool.run(["info", stray, "--source-format", "photoshop"])
        #expect(unknown.status != 0 && unknown.stderr.contains("photoshop"), "\(unknown.stderr)")
    }

    @Test func aPathThatIsNoCaptureSaysWhatWasLookedFor() throws {
        let dir = temporaryDirectory()
        for command in [["info", dir], ["replay", dir, "-o", dir + "/x.ply"], ["frame", dir, "-o", dir + "/x.png"]] {
            let result = try Tool.run(command)
            #expect(result.status != 0 && CaptureCommandsTests.errorLines(result).count == 1, "\(result.stderr)")
            #expect(result.stderr.contains("looked for capture.json; odometry.csv with rgb.mp4 or rgb/;"), "\(result.stderr)")
        }
    }

    @Test func aRecordingWhosePartsDisagreeReplaysOnlyWhatAllOfThemHave() throws {
        let dir = temporaryDirectory()
        let stray = try Self.layout("stray", in: dir)
        try FileManager.default.removeItem(atPath: stray + "/rgb/000002.jpg")
        let info = try Tool.run(["info", stray])
        #expect(info.status == 0 && info.stdout.contains("\ncounts:       odometry.csv holds 3 rows"), "\(info.stdout)")
        let all = try Tool.run(["replay", stray, "-o", dir + "/x.ply"])
        #expect(all.status != 0 && CaptureCommandsTests.errorLines(all).count == 1, "\(all.stderr)")
        #expect(all.stderr.contains("odometry.csv holds 3 rows") && all.stderr.contains("2 frames have both"), "\(all.stderr)")
        let some = try Tool.run(["replay", stray, "-o", dir + "/x.ply", "--frames", "..<2", "--quiet"])
        #expect(some.status == 0 && some.stdout.contains("replayed 2 frames"), "\(some.stdout) \(some.stderr)")
    }

    @Test func viewPaintsARecording() throws {
        try ViewCommandTests.requireDisplay()
        let dir = temporaryDirectory()
        let r3d = try Self.layout("record3d", in: dir)
        let view = try Tool.run(["view", r3d, "--voxel-size", "0.02", "--screenshot", dir + "/v.png", "--size", "160x120", "--background", "black"])
        #expect(view.status == 0 && view.stdout.contains("replayed 3 frames"), "\(view.stdout) \(view.stderr)")
        #expect(ViewCommandTests.foreground(try PNGImage(contentsOf: dir + "/v.png")) > 300)
        let refused = try Tool.run(["view", dir + "/x.ply", "--points", "depth"])
        #expect(refused.status != 0 && refused.stderr.contains("--points applies to a capture, not to the PLY file"), "\(refused.stderr)")
    }

    /// The PLY file at `path` without its `comment source` line (which names the capture).
    static func plyWithoutSource(_ path: String) throws -> [UInt8] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let marker = Array("\ncomment source ".utf8)
        guard let start = (0 ... bytes.count - marker.count).first(where: { bytes[$0 ..< $0 + marker.count].elementsEqual(marker) }) else {
            return bytes
        }
        let end = bytes[(start + 1)...].firstIndex(of: 0x0A)!
        return Array(bytes[..<start] + bytes[end...])
    }

    /// Replaces the Stray layout's `rgb/` JPEG frames with `rgb.mp4`, HEVC as the app records.
    static func encodeStrayVideo(_ path: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffmpeg", "-loglevel", "error", "-framerate", "30", "-i", path + "/rgb/%06d.jpg", "-c:v", "libx265",
                             "-x265-params", "log-level=error", "-pix_fmt", "yuv420p", path + "/rgb.mp4"]
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        try FileManager.default.removeItem(atPath: path + "/rgb")
    }

    @Test(arguments: ["stray", "stray-hevc", "record3d", "polycam", "scanner-app", "nerfstudio"])
    func anImportReplaysToTheSamePLYBytes(layout: String) throws {
        let dir = temporaryDirectory()
        let source = try Self.layout(layout == "stray-hevc" ? "stray" : layout, in: dir)
        if layout == "stray-hevc" { try Self.encodeStrayVideo(source) }
        let imported = try Tool.run(["import", source, "-o", dir + "/v1", "--quiet"])
        #expect(imported.status == 0 && imported.stdout.hasPrefix("imported 3 frames of "), "\(imported.stdout) \(imported.stderr)")
        let planes = layout == "stray-hevc" ? 3 : 0
        #expect(imported.stdout.contains("\nframes:  \(3 - planes) JPEG files copied as recorded, \(planes) as PNG planes of their decoded Y′CbCr\ndepth:   3 maps ("),
                "\(imported.stdout)")
        let info = try Tool.run(["info", dir + "/v1"])
        #expect(info.status == 0 && info.stdout.contains("\ndepth:        3 of 3 frames, "), "\(info.stdout) \(info.stderr)")
        for extra in [[], ["--points", "depth", "--min-confidence", "low", "--depth-stride", "2", "--ply", "ascii"]] {
            let a = try Tool.run(["replay", source, "-o", dir + "/a.ply", "--quiet", "--voxel-size", "0.01"] + extra)
            let b = try Tool.run(["replay", dir + "/v1", "-o", dir + "/b.ply", "--quiet", "--voxel-size", "0.01"] + extra)
            #expect(a.status == 0 && b.status == 0, "\(a.stderr) \(b.stderr)")
            let bytes = try Self.plyWithoutSource(dir + "/a.ply"), imported = try Self.plyWithoutSource(dir + "/b.ply")
            #expect(bytes.count > 1000 && bytes == imported, "\(layout) \(extra)")
        }
    }
}
