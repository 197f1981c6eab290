import ArgumentParser
import Foundation
import PointPaint

/// `pointpaint convert IN.las -o OUT.laz`: LAS to LAZ and back, losslessly.
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Compress a LAS file to LAZ, or decompress LAZ to LAS, keeping every point field and record.",
        discussion: """
            The output is LAZ when its name ends in .laz, else LAS. Every field of every point (extra bytes included), \
            the header, the variable-length records and the extended records are kept; only what compression \
            changes differs. LAZ is written in chunks of 50,000 points (point formats 0 to 3 and 6 to 8). See docs/laz.md.
            """)

    @Argument(help: ArgumentHelp("A LAS or LAZ file.", valueName: "input"))
    var input: String

    @Option(name: .shortAndLong, help: "File to write: .laz (compressed) or .las.")
    var output: String

    func validate() throws {
        let ext = (output as NSString).pathExtension.lowercased()
        guard ext == "las" || ext == "laz" else {
            throw ValidationError("expected an output file ending in .las or .laz, found \(output)")
        }
    }

    func run() throws {
        let start = Date()
        let s = try LASConverter.convert(input, to: output)
        let seconds = Date().timeIntervalSince(start)
        let kind = { (compressed: Bool) in compressed ? "LAZ" : "LAS" }
        print("convert: \(s.points) points (format \(s.pointFormat)), \(kind(s.inputCompressed)) → \(kind(s.outputCompressed)), \(String(format: "%.3f", seconds)) s → \(output)")
    }
}
