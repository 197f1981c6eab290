import ArgumentParser
import PointPaint

extension AccumulationPolicy: ExpressibleByArgument {}
extension PLYGeometry: ExpressibleByArgument {}
extension PLYWideColor: ExpressibleByArgument {}

/// How `--ply` names the PLY encoding on the command line.
public enum PLYEncodingOption: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// Text.
    case ascii
    /// Binary little-endian.
    case binary

    /// The encoding this option selects.
    public var encoding: PLYEncoding { self == .ascii ? .ascii : .binaryLittleEndian }
}

/// Options shared by the commands that accumulate voxels and write PLY (`voxelize`, `replay`):
/// voxel size, accumulation, geometry, encoding and float colours.
public struct SceneOptions: ParsableArguments, Sendable {
    /// Voxel edge length.
    @Option(name: .long, help: "Voxel edge length in world units (metres).")
    public var voxelSize: Float = 0.01

    /// Accumulation policy.
    @Option(name: .long, help: "How samples in one voxel combine: mean (in linear light), latest or first.")
    public var accumulate: AccumulationPolicy = .mean

    /// Points or boxes.
    @Option(name: .long, help: "What each voxel becomes in the PLY: points (one vertex) or boxes (a cube mesh).")
    public var geometry: PLYGeometry = .points

    /// PLY encoding.
    @Option(name: .customLong("ply"), help: "PLY encoding: binary (little-endian) or ascii.")
    public var plyEncoding: PLYEncodingOption = .binary

    /// When to write exact float colours (`red_f green_f blue_f`) beside the 8-bit ones.
    @Option(name: .customLong("float-colors"), help: "Write exact float colours beside the 8-bit ones: auto (when a colour lies outside sRGB), always or never.")
    public var floatColors: PLYWideColor = .auto

    /// Creates the defaults.
    public init() {}

    /// Rejects a voxel size that is not a positive finite number.
    public func validate() throws {
        guard voxelSize > 0, voxelSize.isFinite else {
            throw ValidationError("--voxel-size must be a positive number, found \(voxelSize)")
        }
    }

    /// A PLY writer for these options, recording `source` in the header.
    public func writer(source: String?) -> PLYWriter {
        PLYWriter(encoding: plyEncoding.encoding, geometry: geometry, wideColor: floatColors, source: source)
    }
}
