import Foundation
import Testing
import PointPaint

/// `sample`, `synth` and `frame` on awkward input: extreme coordinates and sizes give a result
/// or one clear line, never a trap.
@Suite struct CaptureCommandsTests {
    /// A small synthesized capture in a fresh directory.
    static func synthesize(_ extra: [String] = []) throws -> (directory: String, capture: String) {
        let dir = temporaryDirectory()
        let capture = dir + "/cap"
        let synth = try Tool.run(["synth", "-o", capture, "--frames", "1", "--size", "32x16", "--points", "10"] + extra)
        #expect(synth.status == 0, "\(synth.stderr)")
        return (dir, capture)
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// The error lines of a failed run, without the usage hints ArgumentParser adds.
    static func errorLines(_ output: Tool.Output) -> [Substring] {
        output.stderr.split(separator: "\n").filter { !$0.hasPrefix("Usage") && !$0.hasPrefix("  See") && !$0.isEmpty }
    }

    @Test func clampedHugeCoordinatesSampleTheEdgePixel() throws {
        let (_, capture) = try Self.synthesize()
        let result = try Tool.run(["sample", capture, "--clamp", "--json", "--at", "1e300,0.5", "--at=-1e300,-1e300", "--at", "0.5,1e308"])
        #expect(result.status == 0, "\(result.stderr)")
        let samples = try #require(try Self.json(result.stdout)["samples"] as? [[String: Any]])
        #expect(samples.count == 3)
        #expect(samples.map { $0["pixel"] as? [Int] } == [[31, 8], [0, 0], [16, 15]])
        #expect(samples.allSatisfy { $0["rgb8"] != nil })
        // Without --clamp the same points are reported as outside.
        let rejected = try Tool.run(["sample", capture, "--json", "--at", "1e300,0.5"])
        #expect(rejected.status == 0)
        #expect(rejected.stdout.contains("\"outside\": true"))
    }

    @Test(arguments: ["nan,0.5", "0.5,inf", "-inf,0", "1e999,0"])
    func nonFiniteCoordinatesAreRefused(at: String) throws {
        let (_, capture) = try Self.synthesize()
        let result = try Tool.run(["sample", capture, "--clamp", "--json", "--at", "0.5,0.5", "--at=\(at)"])
        #expect(result.status != 0)
        let lines = Self.errorLines(result)
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(result.stderr.contains("--at \(at): expected two finite numbers S,T"), "\(result.stderr)")
    }

    @Test(arguments: [
        (["--points", "2000000000000000000"], "--points must be from 0 to 1000000 a frame; found 2000000000000000000"),
        (["--points=-1"], "--points must be from 0"),
        (["--size", "16384x16384"], "--size must be even in both directions, from 2x2 to 4096x4096; found 16384x16384"),
        (["--size", "4098x2"], "--size"),
        (["--frames", "100001"], "--frames must be from 1 to 100000; found 100001"),
        (["--frames", "0"], "--frames must be from 1"),
        (["--frames", "100", "--points", "200000"], "at most 10000000 feature points in all"),
    ])
    func synthRefusesOptionsBeyondItsLimits(options: [String], expected: String) throws {
        let dir = temporaryDirectory()
        let result = try Tool.run(["synth", "-o", dir + "/cap"] + options)
        #expect(result.status != 0)
        #expect(Self.errorLines(result).count == 1, "\(result.stderr)")
        #expect(result.stderr.contains(expected), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/cap"), "nothing written")
    }

    /// A Display P3 frame is converted to sRGB from float and rounded once: every pixel within
    /// 1 level of the sampler's own .srgb colour at that pixel's centre.
    @Test(arguments: ["nearest", "bilinear"])
    func wideColourFrameMatchesPerPixelSamples(interpolation: String) throws {
        let (dir, capture) = try Self.synthesize(["--size", "64x48", "--primaries", "display-p3", "--siting", "left"])
        let output = dir + "/frame.png"
        let result = try Tool.run(["frame", capture, "-o", output, "--interpolation", interpolation])
        #expect(result.status == 0, "\(result.stderr)")
        let png = try PNGImage(contentsOf: output)
        #expect(png.width == 64 && png.height == 48 && png.channels == 3 && png.bitDepth == 8)
        let reader = try CaptureReader(path: capture)
        let info = reader.imageInfo
        let mode = try #require(Interpolation(rawValue: interpolation))
        let sampler = CapturedImageSampler(image: try reader.image(at: 0), encoding: info.encoding,
                                           siting: mode == .nearest ? .center : info.chromaSiting,
                                           primaries: info.primaries, interpolation: mode)
        var worst = 0, clipped = 0
        for row in 0 ..< png.height {
            for col in 0 ..< png.width {
                let at = SIMD2((Double(col) + 0.5) / 64, (Double(row) + 0.5) / 48)
                let want = try #require(sampler.rgb8(at: at))
                let extended = try #require(sampler.color(at: at, space: .extendedSRGB))
                if extended.min() < 0 || extended.max() > 1 { clipped += 1 }
                for k in 0 ..< 3 { worst = max(worst, abs(Int(png.samples8[(row * 64 + col) * 3 + k]) - Int(want[k]))) }
            }
        }
        #expect(worst <= 1, "largest difference \(worst) levels")
        #expect(clipped > 0, "the synthesized P3 frame reaches outside sRGB")
    }
}
