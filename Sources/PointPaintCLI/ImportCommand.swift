import ArgumentParser
import Foundation
import PointPaint

/// `pointpaint import`: an app's recording (or any capture) written as a PointPaint capture.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Write a recording (Stray Scanner, Record3D, Polycam, 3D Scanner App, nerfstudio) as a PointPaint capture that replays to the same cloud.",
        discussion: """
            JPEG frames are copied byte for byte; video and PNG frames are stored as the PNG planes \
            of the Y′CbCr codes decoded from them; depth maps exactly (16-bit millimetres when that \
            holds every value, else raw 32-bit floats) with their confidence maps; feature points \
            where the recording has them; each frame's camera in ARKit's axes as the reader \
            converted it; and the recording's own point cloud. Only the frames all parts of the \
            recording have are written.
            """)

    @OptionGroup var capture: CaptureArgument
    @Option(name: .shortAndLong, help: "Capture directory to write (new or empty).")
    var output: String
    @Option(help: "Threads that load frames (default: all cores).")
    var threads: Int?
    @Option(help: ArgumentHelp("Write the refined camera poses of this poses.json (written by register, or synth --pose-drift) instead of the recorded ones.",
                               valueName: "poses.json"))
    var poses: String?
    @Flag(help: "Print only the summary, no progress.")
    var quiet = false

    func validate() throws {
        if let threads, threads < 1 { throw ValidationError("--threads must be at least 1") }
    }

    func run() throws {
        let source = try CaptureFormat.open(capture.path, format: capture.sourceFormat)
        let refined = try poses.map { try CameraPoses(contentsOf: $0, for: source) }
        var reporter = ProgressReporter(label: "frames", total: source.frameCount)
        let start = Date()
        let counts = try CaptureImport.write(source, to: output, threads: threads ?? ProcessInfo.processInfo.activeProcessorCount,
                                             poses: refined) { done in
            if !quiet { reporter.update(done: done, detail: "") }
        }
        let seconds = Date().timeIntervalSince(start)
        print(String(format: "imported %d frames of %@ in %.2f s into %@", counts.frames, source.format.displayName, seconds, output))
        print("frames:  \(counts.jpegFrames) JPEG files copied as recorded, \(counts.planeFrames) as PNG planes of their decoded Y′CbCr")
        if counts.millimetreDepthMaps + counts.floatDepthMaps > 0 {
            print("depth:   \(counts.millimetreDepthMaps + counts.floatDepthMaps) maps (\(counts.millimetreDepthMaps) as millimetre PNGs, \(counts.floatDepthMaps) as float32), \(counts.confidenceMaps) confidence maps")
        } else {
            print("depth:   none")
        }
        print("points:  feature points on \(counts.framesWithPoints) frames" + (counts.cloud ? "; the recording's cloud as cloud.ply" : ""))
        if let mismatch = source.countMismatch { print("note: \(mismatch); only those frames were imported") }
    }
}
