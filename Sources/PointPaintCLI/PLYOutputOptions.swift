import ArgumentParser
import PointPaint

/// How `--ply` names the PLY encoding on the command line.
enum PLYEncodingOption: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// Text.
    case ascii
    /// Binary little-endian.
    case binary

    /// The encoding this option selects.
    var encoding: PLYEncoding { self == .ascii ? .ascii : .binaryLittleEndian }
}

/// How the commands that write a voxel cloud (`voxelize`, `replay`) write it: geometry, encoding
/// and float colours.
struct PLYOutputOptions: ParsableArguments {
    @Option(help: "What each voxel becomes in the PLY: one vertex, or a cube mesh.")
    var geometry: PLYGeometry = .points

    @Option(name: .customLong("ply"), help: "PLY encoding (binary is little-endian).")
    var plyEncoding: PLYEncodingOption = .binary

    @Option(name: .customLong("float-colors"), help: "When to write exact float colours beside the 8-bit ones (auto: when a colour lies outside sRGB).")
    var floatColors: PLYWideColor = .auto

    @Option(name: .customLong("ply-positions"), help: PLYOutputOptions.positionsHelp)
    var positions: PLYPositionType = .auto

    /// What `--ply-positions` says, for every command that has it.
    static let positionsHelp: ArgumentHelp = "The type of x, y, z in the PLY (auto: double where float would move a vertex by more than a sixteenth of a voxel, or 0.1 mm for points: clouds in map coordinates)."

    /// A PLY writer for these options, recording `source` in the header.
    func writer(source: String?) -> PLYWriter {
        PLYWriter(encoding: plyEncoding.encoding, geometry: geometry, wideColor: floatColors, source: source, positionType: positions)
    }
}
