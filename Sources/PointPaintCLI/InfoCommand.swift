import ArgumentParser
import Foundation
import PointPaint

/// `pointpaint info`: summarises a capture directory or a PLY file.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Summarise a capture (frames, resolution, colour, points, size, problems) or a PLY file.")

    @Argument(help: "A capture directory (or its capture.json), or a .ply file.")
    var path: String = defaultCapturePath

    func run() throws {
        if path.lowercased().hasSuffix(".ply") {
            print(try plyReport(path: path))
            return
        }
        let summary = CaptureSummary(reader: try CaptureReader(path: path))
        print(summary.report)
        if !summary.problems.isEmpty { throw ExitCode(1) }
    }
}
