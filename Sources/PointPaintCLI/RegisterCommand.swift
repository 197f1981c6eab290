import ArgumentParser
import Foundation
import PointPaint

/// `pointpaint register`: refines every frame's camera pose from the recording itself and writes
/// a poses file for `replay --poses` and `paint --poses`.
struct RegisterCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "register",
        abstract: "Refine each frame's camera pose so the frames' depth agrees (drift corrected); write poses.json for --poses.",
        discussion: """
            Geometric refinement: every frame's depth points, with normals from the depth grid, \
            are matched with the nearest points of the other frames and all poses are solved \
            together (point-to-plane Gauss–Newton, Huber loss, correspondence radii 8, 4 and 2 cm). \
            The anchor frame (the first selected, or --anchor) keeps its recorded pose. A \
            correction past --max-correction, or one that raises the frame's residual, is not \
            applied and the frame is named. docs/registration.md describes the method and the file.
            """)

    @OptionGroup var capture: CaptureArgument
    @Option(name: .shortAndLong, help: ArgumentHelp("The poses file to write.", valueName: "poses.json"))
    var output: String
    @Option(help: "Frames to register: A..B (inclusive), A..<B, A.. or ..B (default: all).", transform: FrameRange.init(argument:))
    var frames: FrameRange?
    @Option(help: "Use every Nth frame.")
    var every = 1
    @Option(help: "The frame whose pose is held (default: the first selected).")
    var anchor: Int?
    @Option(help: "Depth pixels below this confidence are not used.")
    var minConfidence: DepthConfidence = .high
    @Option(help: "Depth pixels farther than this many metres are not used.")
    var maxDepth = 5.0
    @Option(help: ArgumentHelp("Corrections larger than this are not applied.", valueName: "METRES,DEGREES"))
    var maxCorrection = "0.25,10"
    @Option(help: "Threads (default: all cores).")
    var threads: Int?

    /// `--max-correction` as metres and degrees.
    var limits: (metres: Double, degrees: Double)? {
        let parts = maxCorrection.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let m = parts[0], let d = parts[1], m > 0, d > 0, m.isFinite, d.isFinite else { return nil }
        return (m, d)
    }

    func validate() throws {
        if every < 1 { throw ValidationError("--every must be at least 1") }
        if let threads, threads < 1 { throw ValidationError("--threads must be at least 1") }
        if !(maxDepth > 0 && maxDepth.isFinite) { throw ValidationError("--max-depth must be a positive number of metres, found \(maxDepth)") }
        if limits == nil { throw ValidationError("--max-correction must be METRES,DEGREES, both positive; found \(maxCorrection)") }
        if !output.lowercased().hasSuffix(".json") { throw ValidationError("-o names the poses file to write: a .json file; found \(output)") }
    }

    func run() throws {
        let source = try CaptureFormat.open(capture.path, format: capture.sourceFormat)
        var options = GeometricRegistration.Options()
        options.pass.frames = frames?.range
        options.pass.every = every
        if let threads { options.pass.threads = threads }
        options.depth.minimumConfidence = minConfidence
        options.depth.maximumDepth = Float(maxDepth)
        options.maximumCorrection = limits!
        if let anchor {
            guard anchor >= 0, anchor < source.frameCount else {
                throw CommandError("\(capture.path): --anchor: no frame \(anchor): the capture has \(source.frameCount)")
            }
            options.anchor = anchor
        }
        let start = Date()
        let (poses, report) = try GeometricRegistration.run(source: source, options: options)
        try poses.write(to: output)
        let seconds = Date().timeIntervalSince(start)
        print(String(format: "registered %d frames in %.2f s: %d corrected (median %.1f mm %.3f°, largest %.1f mm %.3f°); residual %.2f mm → %.2f mm; wrote %@",
                     report.frames, seconds, report.corrected, report.medianCorrection.metres * 1000, report.medianCorrection.degrees,
                     report.largestCorrection.metres * 1000, report.largestCorrection.degrees, report.residual.before * 1000,
                     report.residual.after * 1000, output))
        for (frame, reason) in report.refused { print("frame \(frame) kept its recorded pose: \(reason)") }
    }
}
