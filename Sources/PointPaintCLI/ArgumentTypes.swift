import ArgumentParser
import PointPaint
import PointPaintViewer

// The library's enums as option values: `--name VALUE` takes a raw value, and `--help` lists them.
extension AccumulationPolicy: ExpressibleByArgument {}
extension Background: ExpressibleByArgument {}
extension CaptureFormat: ExpressibleByArgument {}
extension CaptureImageEncoding: ExpressibleByArgument {}
extension CaptureReplay.PointSource: ExpressibleByArgument {}
extension ChromaSiting: ExpressibleByArgument {}
extension ColorCube.Interpolation: ExpressibleByArgument {}
extension ColorPrimaries: ExpressibleByArgument {}
extension DisplayOrientation: ExpressibleByArgument {}
extension Interpolation: ExpressibleByArgument {}
extension PLYGeometry: ExpressibleByArgument {}
extension PLYPositionType: ExpressibleByArgument {}
extension PLYWideColor: ExpressibleByArgument {}
extension SampleSpace: ExpressibleByArgument {}
extension StrategyKind: ExpressibleByArgument {}
extension YCbCrMatrix: ExpressibleByArgument {}
extension YCbCrRange: ExpressibleByArgument {}

/// A confidence level by its name: `low`, `medium` or `high`.
extension DepthConfidence: ExpressibleByArgument {
    /// The level named `argument`.
    public init?(argument: String) {
        guard let level = Self.allCases.first(where: { $0.name == argument }) else { return nil }
        self = level
    }

    /// The names `--help` lists.
    public static var allValueStrings: [String] { allCases.map(\.name) }
    /// None: `--help` lists the names on one line (its default would pair the raw numbers with them).
    public static var allValueDescriptions: [String: String] { [:] }
    /// The name, for the default in `--help`.
    public var defaultValueDescription: String { name }
}

/// A size written `WIDTHxHEIGHT`, such as `640x480`.
struct PixelSize: ExpressibleByArgument, Sendable, Equatable, CustomStringConvertible {
    /// Width in pixels.
    var width: Int
    /// Height in pixels.
    var height: Int

    /// Creates a size.
    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Parses `WIDTHxHEIGHT`.
    init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0 else { return nil }
        self.init(width: w, height: h)
    }

    /// `WIDTHxHEIGHT`.
    var description: String { "\(width)x\(height)" }
    /// Shown in help.
    var defaultValueDescription: String { description }
}

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

/// Where the repository's sample capture lives, for commands whose capture argument is optional:
/// `Captures/sample` under the current directory.
let defaultCapturePath = "Captures/sample"
