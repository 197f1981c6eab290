import ArgumentParser
import Foundation
import PointPaint

/// A frame range written `A..B` (A to B inclusive), `A..<B` (B excluded), `A..` (A to the end)
/// or `..B` / `..<B` (from frame 0). Frame numbers are non-negative whole numbers; a range that
/// selects no frames is refused with a message saying why.
struct FrameRange: Sendable, Equatable {
    /// The frames selected; the upper bound is `Int.max` for an open end.
    var range: Range<Int>

    /// Parses the command-line text; the error's description explains what was expected.
    init(argument: String) throws {
        let halfOpen = argument.contains("..<")
        let parts = argument.components(separatedBy: halfOpen ? "..<" : "..")
        let forms = "A..B (inclusive), A..<B, A.. or ..B with whole frame numbers from 0"
        guard parts.count == 2, !(parts[0].isEmpty && parts[1].isEmpty && halfOpen) else {
            throw ValidationError("expected \(forms), found '\(argument)'")
        }
        func number(_ text: String) throws -> Int {
            guard let n = Int(text), n >= 0 else {
                throw ValidationError("expected \(forms); '\(text)' is not a frame number")
            }
            return n
        }
        let low = parts[0].isEmpty ? 0 : try number(parts[0])
        let upper: Int
        if parts[1].isEmpty {
            upper = Int.max
        } else {
            let high = try number(parts[1])
            if halfOpen {
                guard high > low else {
                    throw ValidationError("\(argument) selects no frames: in A..<B, B must be greater than A")
                }
                upper = high
            } else {
                guard high >= low else {
                    throw ValidationError("\(argument) runs backwards: in A..B, B must be ≥ A")
                }
                // B + 1 without overflow: the last frame number there is stands for "to the end".
                let (next, overflow) = high.addingReportingOverflow(1)
                upper = overflow ? Int.max : next
            }
        }
        range = low ..< upper
    }
}

/// `pointpaint replay`: a capture into a coloured voxel cloud in a PLY file.
public struct ReplayCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay a capture: colour its feature points from the camera frames and write the voxels as PLY.")

    @Argument(help: "Capture directory (default: \(defaultCapturePath)).")
    var capture: String = defaultCapturePath
    @Option(name: .shortAndLong, help: "PLY file to write.")
    var output: String
    @OptionGroup var scene: SceneOptions
    @OptionGroup(title: "Colour grading (folded into one colour cube, applied to every sample)") var grading: GradingOptions
    @Option(help: "Frames to replay: A..B (inclusive), A..<B, A.. or ..B.", transform: FrameRange.init(argument:))
    var frames: FrameRange?
    @Option(help: "Replay every Nth frame.")
    var every = 1
    @Option(help: "Sampling: nearest or bilinear.")
    var interpolation: Interpolation = .bilinear
    @Option(help: "Threads that load and sample frames (default: all cores).")
    var threads = ProcessInfo.processInfo.activeProcessorCount
    @Flag(help: "Print only the summary, no progress.")
    var quiet = false

    public init() {}

    public func validate() throws {
        guard every >= 1 else { throw ValidationError("--every must be at least 1") }
        guard threads >= 1 else { throw ValidationError("--threads must be at least 1") }
    }

    public func run() throws {
        let reader = try CaptureReader(path: capture)
        var options = CaptureReplay.Options()
        options.frames = frames?.range
        options.every = every
        options.interpolation = interpolation
        options.threads = threads
        options.grade = try grading.foldedCube()
        let replay = CaptureReplay(reader: reader, options: options)
        let total = replay.frameIndices.count
        guard total > 0 else {
            throw PointPaintError(.outOfRange, file: capture, place: .part("--frames"), "no frames to replay: the capture has \(reader.frameCount)")
        }
        var store = SceneStore(voxelSize: scene.voxelSize, policy: scene.accumulate)
        var reporter = ProgressReporter(label: "frames", total: total)
        let start = Date()
        let statistics = try replay.run(into: &store) { progress in
            if !quiet { reporter.update(done: progress.done, detail: "\(progress.voxels) voxels") }
            return true
        }
        let seconds = Date().timeIntervalSince(start)
        var writer = scene.writer(source: capture)
        writer.comments.append("replayed \(statistics.frames) frames, \(statistics.painted) samples, \(scene.accumulate.rawValue) accumulation")
        if options.grade != nil { writer.comments.append("graded: \(grading.summary)") }
        try writer.write(store.cloud(), to: output)
        print(Self.summary(statistics, voxels: store.count, seconds: seconds, output: output))
    }

    static func summary(_ s: CaptureReplay.Statistics, voxels: Int, seconds: Double, output: String) -> String {
        var text = String(format: "replayed %d frames in %.2f s (%.0f frames/s): %d points seen, %d painted, %d skipped (%d behind the camera, %d outside the image)",
                          s.frames, seconds, Double(s.frames) / max(seconds, 1e-9), s.pointsSeen, s.painted, s.behind + s.outside, s.behind, s.outside)
        if s.rejected > 0 { text += String(format: ", %d refused by the store", s.rejected) }
        if s.outOfSRGB > 0 { text += String(format: ", %d (%.1f%%) outside sRGB", s.outOfSRGB, 100 * Double(s.outOfSRGB) / Double(max(s.painted, 1))) }
        text += "\nwrote \(voxels) voxels to \(output)"
        return text
    }
}
