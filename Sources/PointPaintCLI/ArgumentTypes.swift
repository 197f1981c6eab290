import ArgumentParser
import PointPaint

extension YCbCrRange: ExpressibleByArgument {}
extension YCbCrMatrix: ExpressibleByArgument {}
extension ColorPrimaries: ExpressibleByArgument {}
extension ChromaSiting: ExpressibleByArgument {}
extension CaptureImageEncoding: ExpressibleByArgument {}

/// A size written `WIDTHxHEIGHT`, such as `640x480`.
public struct PixelSize: ExpressibleByArgument, Sendable, Equatable, CustomStringConvertible {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// Creates a size.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Parses `WIDTHxHEIGHT`.
    public init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0 else { return nil }
        self.init(width: w, height: h)
    }

    /// `WIDTHxHEIGHT`.
    public var description: String { "\(width)x\(height)" }
    /// Shown in help.
    public var defaultValueDescription: String { description }
}

/// Where the repository's sample capture lives, for commands whose capture argument is optional:
/// `Captures/sample` under the current directory.
package let defaultCapturePath = "Captures/sample"
