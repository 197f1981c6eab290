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

/// How every command that writes a PLY encodes it: text or binary, float colours, and the type
/// of the positions.
struct PLYEncodingOptions: ParsableArguments {
    @Option(name: .customLong("ply"), help: "PLY encoding (binary is little-endian).")
    var plyEncoding: PLYEncodingOption = .binary

    @Option(name: .customLong("float-colors"), help: "When to write exact float colours beside the 8-bit ones (auto: when a colour lies outside sRGB).")
    var floatColors: PLYWideColor = .auto

    @Option(name: .customLong("ply-positions"), help: "The type of x, y, z in the PLY (auto: double where float would move a vertex by more than a sixteenth of a voxel, or 0.1 mm for points: clouds in map coordinates).")
    var positions: PLYPositionType = .auto

    /// The first of these options set away from its default, as spelled on the command line.
    var optionGiven: String? {
        if plyEncoding != .binary { return "--ply" }
        if floatColors != .auto { return "--float-colors" }
        if positions != .auto { return "--ply-positions" }
        return nil
    }
}

/// How the commands that write a voxel cloud (`voxelize`, `replay`) write it: geometry, then the
/// encoding.
struct PLYOutputOptions: ParsableArguments {
    @Option(help: "What each voxel becomes in the PLY: one vertex, or a cube mesh.")
    var geometry: PLYGeometry = .points

    @OptionGroup var encoding: PLYEncodingOptions

    /// The first PLY option set away from its default, as spelled on the command line.
    var optionGiven: String? {
        geometry != .points ? "--geometry" : encoding.optionGiven
    }

    /// A PLY writer for these options, recording `source` in the header.
    func writer(source: String?) -> PLYWriter {
        PLYWriter(encoding: encoding.plyEncoding.encoding, geometry: geometry, wideColor: encoding.floatColors, source: source,
                  positionType: encoding.positions)
    }
}
