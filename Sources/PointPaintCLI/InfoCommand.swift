import ArgumentParser
import Foundation
import PointPaint

/// `pointpaint info`: summarises a capture directory or a PLY file.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Summarise a capture (frames, resolution, colour, points, size, problems), a PLY file or a store file.")

    @Argument(help: "A capture directory (or its capture.json), a .ply file or a .ppstore file.")
    var path: String = defaultCapturePath

    func run() throws {
        if let report = try fileReport(path: path) {
            print(report)
            return
        }
        let summary = CaptureSummary(reader: try CaptureReader(path: path))
        print(summary.report)
        if !summary.problems.isEmpty { throw ExitCode(1) }
    }
}
