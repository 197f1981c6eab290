import Foundation
import Testing
import PointPaint

/// Runs the built `pointpaint` executable (beside the test bundle) as a person would.
struct Tool {
    static let path: String = {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for dir in [beside, beside.deletingLastPathComponent()] {
            let candidate = dir.appendingPathComponent("pointpaint").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return beside.appendingPathComponent("pointpaint").path
    }()

    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `pointpaint ARGUMENTS` in `directory` (default: the test's own).
    static func run(_ arguments: [String], in directory: String? = nil) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Runs `pointpaint synth ARGUMENTS`, expecting it to succeed (its error output otherwise).
    static func synth(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try run(["synth"] + arguments)
        #expect(result.status == 0, "\(result.stderr)", sourceLocation: sourceLocation)
    }
}

/// A fresh directory for one test, inside this process's scratch folder.
func temporaryDirectory() -> String {
    let path = scratchFolder + "/" + UUID().uuidString
    try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// The folder of every `temporaryDirectory()` of this test process, removed when it exits (so
/// no test has to remove its own, and a test that fails midway leaves nothing either).
let scratchFolder: String = {
    let path = NSTemporaryDirectory() + "/pointpaint-cli-\(getpid())-\(UUID().uuidString)"
    try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(atPath: scratchFolder) }
    return path
}()

@Suite struct CommandLineTests {
    @Test func synthInfoReplayAndSample() throws {
        let dir = temporaryDirectory()
        let capture = dir + "/cap"
        try Tool.synth(["-o", capture, "--frames", "3", "--size", "64x48", "--points", "60", "--encoding", "png"])
        let info = try Tool.run(["info", capture])
        #expect(info.status == 0)
        #expect(info.stdout.contains("frames:       3"))
        #expect(info.stdout.contains("64x48, stored as png"))
        #expect(info.stdout.contains("full range, bt601 matrix, srgb primaries"))
        #expect(info.stdout.contains("problems:     none"))
        let replay = try Tool.run(["replay", capture, "-o", dir + "/cloud.ply", "--voxel-size", "0.05"])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdout.contains("replayed 3 frames"))
        #expect(!replay.stderr.contains("\r"), "no terminal redraws when stderr is not a terminal")
        let ply = try Tool.run(["info", dir + "/cloud.ply"])
        #expect(ply.stdout.contains("voxel_size 0.05"))
        let sample = try Tool.run(["sample", capture, "--at", "0.5,0.5", "--at", "2,2", "--json"])
        #expect(sample.status == 0)
        #expect(sample.stdout.contains("\"rgb8\""))
        #expect(sample.stdout.contains("\"outside\": true"))
    }

    @Test(arguments: [
        (["info", "/nonexistent/capture"], "/nonexistent/capture"),
        (["replay", "/nonexistent/capture", "-o", "/tmp/x.ply"], "found nothing at this path"),
        (["synth", "-o", "/tmp/x", "--size", "63x48"], "--size"),
        (["sample", "Captures/sample"], "--at"),
        (["info", "/nonexistent.ply"], "/nonexistent.ply"),
        // Was "found 0.0": the value as given, not what a Float rounds it to.
        (["replay", "Captures/sample", "-o", "/tmp/x.ply", "--voxel-size", "1e-300"], "--voxel-size must be a positive number from 1.1754944e-38 to 3.4028235e+38, found 1e-300"),
        (["voxelize", "Captures/sample/truth.ply", "-o", "/tmp/x.ply", "--voxel-size", "1e39"], "found 1e+39"),
        // Took 5.9 GB, and at 100000x100000 printed a raw multi-line X11 error.
        (["view", "Captures/sample", "--size", "16384x16384", "--screenshot", "/tmp/x.png"], "--size must be at most 8192x8192, found 16384x16384"),
        (["view", "Captures/sample", "--size", "100000x100000", "--screenshot", "/tmp/x.png"], "--size must be at most 8192x8192"),
    ])
    func badInputGivesOneClearLine(arguments: [String], expected: String) throws {
        let result = try Tool.run(arguments)
        #expect(result.status != 0)
        let lines = result.stderr.split(separator: "\n").filter { !$0.hasPrefix("Usage") && !$0.hasPrefix("  See") && !$0.isEmpty }
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(result.stderr.contains(expected), "\(result.stderr)")
    }

    /// A capture without frames was answered with "expected a frame index from 0 to -1".
    @Test func frameIndexIntoACaptureWithoutFrames() throws {
        let dir = temporaryDirectory()
        let manifest = CaptureManifest(image: CaptureImageInfo(width: 8, height: 4), frames: [])
        try Data(manifest.jsonText().utf8).write(to: URL(fileURLWithPath: dir + "/capture.json"))
        for command in [["frame", dir, "--index", "0", "-o", dir + "/f.png"], ["sample", dir, "--at", "0.5,0.5"]] {
            let result = try Tool.run(command)
            #expect(result.status != 0)
            #expect(result.stderr.contains("--index: expected a frame, but the capture holds none, found 0"), "\(result.stderr)")
            #expect(!result.stderr.contains("to -1") && !result.stderr.contains("below 0"), "\(result.stderr)")
        }
    }

    @Test func damagedCaptureIsReportedWithFileAndPlace() throws {
        let dir = temporaryDirectory()
        let capture = dir + "/cap"
        try Tool.synth(["-o", capture, "--frames", "2", "--size", "32x16", "--points", "10"])
        let frame = capture + "/frames/000001.nv12"
        try Data(repeating: 0, count: 100).write(to: URL(fileURLWithPath: frame))
        for command in [["info", capture], ["replay", capture, "-o", dir + "/o.ply"]] {
            let result = try Tool.run(command)
            #expect(result.status != 0)
            #expect(result.stderr.contains("frames/000001.nv12"))
            #expect(result.stderr.contains("expected 768 bytes"))
            #expect(result.stderr.contains("found 100"))
        }
        #expect(!FileManager.default.fileExists(atPath: dir + "/o.ply"), "no output from a failed run")
    }

    @Test func wideColourCapturesReportTheirOutOfGamutShare() throws {
        let dir = temporaryDirectory()
        let capture = dir + "/p3"
        try Tool.synth(["-o", capture, "--frames", "2", "--size", "160x120", "--points", "80", "--primaries", "display-p3"])
        let info = try Tool.run(["info", capture])
        #expect(info.stdout.contains("display-p3 primaries"))
        let line = try #require(info.stdout.split(separator: "\n").first { $0.hasPrefix("wide colour:") })
        let share = Double(line.split(separator: "(")[1].split(separator: "%")[0]) ?? -1
        #expect(share > 5 && share < 95, "\(line)")
        let replay = try Tool.run(["replay", capture, "-o", dir + "/p3.ply", "--quiet"])
        #expect(replay.stdout.contains("outside sRGB"))
        let ply = try Tool.run(["info", dir + "/p3.ply"])
        #expect(ply.stdout.contains("red_f green_f blue_f"))
        #expect(ply.stdout.contains("colours outside sRGB:"))
        #expect(!ply.stdout.contains("colours outside sRGB: 0 of"))
    }

    /// A 764 KB PNG that decoded to 16384² pixels took 19 s and 1.6 GB in `lut apply --to`: the
    /// image is refused past 64 M pixels, from its header, before anything is decoded.
    @Test func lutApplyRefusesAnImagePastItsPixelLimit() throws {
        let dir = temporaryDirectory()
        let side = 8200
        try PNGImage(width: side, height: side, channels: 1, samples: [UInt8](repeating: 0, count: side * side))
            .write(to: dir + "/big.png", compressionLevel: 9)
        #expect(try Tool.run(["lut", "identity", "--size", "2", "-o", dir + "/id.cube"]).status == 0)
        let result = try Tool.run(["lut", "apply", dir + "/id.cube", "--to", dir + "/big.png", "-o", dir + "/out.png"])
        #expect(result.status != 0)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.contains("expected an image of at most 67108864 pixels, found 8200x8200"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.png"))
    }

    /// `voxelize --accumulate first` wrote NaN and infinite float colours where `mean` cleaned
    /// them; every policy now writes finite colours.
    @Test(arguments: ["mean", "first", "latest"])
    func voxelizeWritesFiniteColoursWhateverItReads(policy: String) throws {
        let dir = temporaryDirectory()
        let header = "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\n"
            + "property float red\nproperty float green\nproperty float blue\nend_header\n"
        try (header + "0 0 0 nan inf -inf\n1 0 0 1e30 -1e30 0.5\n2 0 0 0.25 0.5 0.75\n").write(toFile: dir + "/in.ply", atomically: false, encoding: .utf8)
        let result = try Tool.run(["voxelize", dir + "/in.ply", "-o", dir + "/out.ply", "--voxel-size", "1",
                                   "--accumulate", policy, "--ply", "ascii", "--float-colors", "always"])
        #expect(result.status == 0, "\(result.stderr)")
        let cloud = try PLYReader.readCloud(path: dir + "/out.ply")
        #expect(cloud.count == 3)
        #expect(cloud.colors.allSatisfy { $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }, "\(policy): \(cloud.colors)")
    }

    /// A cloud wider than the keys reach voxelised and painted to an empty file with exit
    /// status 0; now it stops with one line naming the point and the limit, and writes nothing.
    @Test func pointsPastTheGridsReachStopTheRun() throws {
        let dir = temporaryDirectory()
        let capture = dir + "/cap"
        try Tool.synth(["-o", capture, "--frames", "2", "--size", "64x48", "--points", "50"])
        let header = "ply\nformat ascii 1.0\nelement vertex 3\nproperty double x\nproperty double y\nproperty double z\n"
            + "property uchar red\nproperty uchar green\nproperty uchar blue\nend_header\n"
        // 120 km apart: past ±52.4 km at 5 cm voxels, wherever the grid's origin lies.
        try (header + "0 0 0 10 20 30\n120000 0 0 40 50 60\n0.1 0 0 1 2 3\n").write(toFile: dir + "/wide.ply", atomically: false, encoding: .utf8)
        for command in [["voxelize", dir + "/wide.ply"], ["paint", dir + "/wide.ply", capture]] {
            let out = dir + "/out.ply"
            let result = try Tool.run(command + ["-o", out, "--voxel-size", "0.05"])
            #expect(result.status != 0, "\(command[0]): \(result.stdout)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
            // The grid's origin is the cloud's centre, 60 km from every point.
            #expect(result.stderr.contains("wide.ply: point (0.000, 0.000, 0.000) (and 2 more) lies past the voxel grid's reach"),
                    "\(result.stderr)")
            #expect(result.stderr.contains("±52428.8 m (2^20 cells) of the grid's origin (60000, 0, 0) m"), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
    }
}
