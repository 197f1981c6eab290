import ArgumentParser
import Foundation
import PointPaint

/// `pointpaint synth`: renders a synthetic capture with known ground truth.
struct SynthCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "synth",
        abstract: "Synthesize a capture of a textured 3D scene, with its ground truth in truth.ply.")

    @Option(name: .shortAndLong, help: "Capture directory to write.")
    var output: String
    @Option(help: "Frames to render.")
    var frames = 40
    @Option(help: "Image size, WIDTHxHEIGHT (both even).")
    var size = PixelSize(width: 640, height: 480)
    @Option(help: "Feature points a frame.")
    var points = 300
    @Option(help: "Primaries of the encoded colour.")
    var primaries: ColorPrimaries = .srgb
    @Option(help: "Code range.")
    var range: YCbCrRange = .full
    @Option(help: "Y'CbCr matrix.")
    var matrix: YCbCrMatrix = .bt601
    @Option(help: "Chroma siting.")
    var siting: ChromaSiting = .center
    @Option(help: "Frame image encoding (nv12: raw planes; png: three plane PNGs).")
    var encoding: CaptureImageEncoding = .nv12
    @Option(help: "Standard deviation of feature-point position noise, metres.")
    var noise = 0.002
    @Option(help: "Random seed.")
    var seed: UInt64 = 1


    func validate() throws {
        typealias Limits = CaptureSynthesizer.Options
        let largest = Limits.maximumDimension
        guard size.width % 2 == 0, size.height % 2 == 0, size.width >= 2, size.height >= 2,
              size.width <= largest, size.height <= largest
        else { throw ValidationError("--size must be even in both directions, from 2x2 to \(largest)x\(largest); found \(size)") }
        guard frames >= 1, frames <= Limits.maximumFrameCount else {
            throw ValidationError("--frames must be from 1 to \(Limits.maximumFrameCount); found \(frames)")
        }
        guard points >= 0, points <= Limits.maximumPointsPerFrame else {
            throw ValidationError("--points must be from 0 to \(Limits.maximumPointsPerFrame) a frame; found \(points)")
        }
        // Both are bounded above, so the product cannot overflow.
        guard frames * points <= Limits.maximumTotalPoints else {
            throw ValidationError("--frames × --points must be at most \(Limits.maximumTotalPoints) feature points in all; found \(frames) × \(points)")
        }
        guard noise >= 0, noise.isFinite else { throw ValidationError("--noise must be a non-negative number") }
    }

    func run() throws {
        var options = CaptureSynthesizer.Options()
        options.frameCount = frames
        options.width = size.width
        options.height = size.height
        options.pointsPerFrame = points
        options.primaries = primaries
        options.range = range
        options.matrix = matrix
        options.chromaSiting = siting
        options.positionNoise = noise
        options.seed = seed
        let start = Date()
        let truth = try CaptureSynthesizer(options: options).write(to: output, encoding: encoding)
        let seconds = Date().timeIntervalSince(start)
        print("wrote \(output): \(frames) frames of \(size), \(truth.count) feature points, \(encoding.rawValue) planes, \(range.rawValue)-range \(matrix.rawValue), \(primaries.rawValue), in \(String(format: "%.2f", seconds)) s")
    }
}
