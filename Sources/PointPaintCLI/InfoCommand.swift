import ArgumentParser
import Foundation
import PointPaint

/// `pointpaint info`: summarises a capture (PointPaint's own or an app's recording) or a PLY file.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Summarise a capture (format, frames, resolution, colour, points or depth, problems, how it was read), a PLY or LAS file, or a store file.")

    @Argument(help: "A capture: a PointPaint capture directory (or its capture.json), a recording of Stray Scanner, Record3D (.r3d or its export), Polycam, 3D Scanner App or nerfstudio; or a .ply, .las, .laz or .ppstore file.")
    var path: String = defaultCapturePath
    @Option(help: "Read the capture as this format instead of the one its files show.")
    var sourceFormat: CaptureFormat?

    func run() throws {
        if sourceFormat == nil, let report = try fileReport(path: path) {
            print(report)
            return
        }
        let summary = try CaptureFormat.open(path, format: sourceFormat).summary()
        print(summary.report)
        if !summary.problems.isEmpty { throw ExitCode(1) }
    }
}
