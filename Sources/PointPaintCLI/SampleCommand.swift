import ArgumentParser
import Foundation
import PointPaint

extension Interpolation: ExpressibleByArgument {}
extension SampleSpace: ExpressibleByArgument {}
extension DisplayOrientation: ExpressibleByArgument {}

/// A scalar coordinate pair written `S,T`. Non-finite numbers parse here and are refused by
/// `SampleCommand.validate()` with a message that says so.
struct ScalarPoint: ExpressibleByArgument {
    var value: SIMD2<Double>
    var text: String

    init?(argument: String) {
        let parts = argument.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let s = Double(parts[0]), let t = Double(parts[1]) else { return nil }
        value = SIMD2(s, t)
        text = argument
    }
}

/// `pointpaint sample`: the colour of a frame at scalar coordinates.
public struct SampleCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "sample",
        abstract: "Print the colour of a frame at scalar image coordinates (0…1, origin top-left).")

    @Argument(help: "Capture directory.")
    var capture: String = defaultCapturePath
    @Option(help: "Frame index, from 0.")
    var index = 0
    @Option(name: .customLong("at"), help: "Coordinate S,T; repeat for more.")
    var points: [ScalarPoint] = []
    @Option(help: "Orientation the coordinates were taken in: \(DisplayOrientation.allCases.map(\.rawValue).joined(separator: ", ")).")
    var orientation: DisplayOrientation = .landscapeRight
    @Option(help: "Viewport (screen) size WIDTHxHEIGHT the coordinates are fractions of, when the image fills it aspect-fill as ARKit shows it.")
    var viewport: PixelSize?
    @Option(help: "nearest or bilinear.")
    var interpolation: Interpolation = .bilinear
    @Option(help: "Output space: \(SampleSpace.allCases.map(\.rawValue).joined(separator: ", ")).")
    var space: SampleSpace = .srgb
    @Option(help: "Override the manifest's matrix (bt601, bt709, bt2020).")
    var matrix: YCbCrMatrix?
    @Option(help: "Override the manifest's range (full, video).")
    var range: YCbCrRange?
    @Flag(help: "Clamp coordinates outside 0…1 onto the image instead of reporting them as outside.")
    var clamp = false
    @Flag(help: "Print JSON for scripts.")
    var json = false

    public init() {}

    public func validate() throws {
        guard !points.isEmpty else { throw ValidationError("give at least one --at S,T") }
        guard index >= 0 else { throw ValidationError("--index must not be negative") }
        if let bad = points.first(where: { !$0.value.x.isFinite || !$0.value.y.isFinite }) {
            throw ValidationError("--at \(bad.text): expected two finite numbers S,T")
        }
    }

    public func run() throws {
        let reader = try CaptureReader(path: capture, checkFiles: false)
        guard index < reader.frameCount else {
            let expected = reader.frameCount == 0 ? "a frame, but the capture holds none" : "a frame index below \(reader.frameCount)"
            throw PointPaintError(.outOfRange, file: capture, place: .part("--index"), "expected \(expected), found \(index)")
        }
        let info = reader.imageInfo
        let encoding = YCbCrEncoding(matrix: matrix ?? info.matrix, range: range ?? info.range)
        var sampler = CapturedImageSampler(image: try reader.image(at: index), encoding: encoding, siting: info.chromaSiting,
                                           primaries: info.primaries, interpolation: interpolation)
        sampler.edgePolicy = clamp ? .clamp : .reject
        let mapping = DisplayMapping(orientation: orientation, imageWidth: info.width, imageHeight: info.height,
                                     viewport: viewport.map { SIMD2(Double($0.width), Double($0.height)) })
        var records: [String] = []
        for point in points {
            let p = point.value
            let imagePoint = mapping.imageCoordinates(viewport: p)
            let color = sampler.color(at: imagePoint, space: space)
            if json {
                var fields = ["\"at\": [\(p.x), \(p.y)]", "\"image\": [\(imagePoint.x), \(imagePoint.y)]"]
                if let color {
                    let bytes = Self.bytes(color)
                    fields.append("\"rgb8\": [\(bytes.x), \(bytes.y), \(bytes.z)]")
                    fields.append("\"float\": [\(color.x), \(color.y), \(color.z)]")
                    if let pixel = sampler.pixel(at: imagePoint) {
                        fields.append("\"pixel\": [\(pixel.x), \(pixel.y)]")
                    }
                } else {
                    fields.append("\"outside\": true")
                }
                records.append("{" + fields.joined(separator: ", ") + "}")
            } else if let color {
                let bytes = Self.bytes(color)
                print(String(format: "%.6f,%.6f  %@ %3d %3d %3d  float %.6f %.6f %.6f", p.x, p.y, space.rawValue, bytes.x, bytes.y, bytes.z,
                             Double(color.x), Double(color.y), Double(color.z)))
            } else {
                print(String(format: "%.6f,%.6f  outside the image", p.x, p.y))
            }
        }
        if json {
            print("{\"frame\": \(index), \"space\": \"\(space.rawValue)\", \"interpolation\": \"\(interpolation.rawValue)\", \"samples\": [" + records.joined(separator: ", ") + "]}")
        }
    }

    /// 8-bit codes of a colour, clamped to 0…255 (extended values saturate).
    static func bytes(_ c: SIMD3<Float>) -> SIMD3<Int> {
        SIMD3(Int((min(max(c.x, 0), 1) * 255).rounded()), Int((min(max(c.y, 0), 1) * 255).rounded()), Int((min(max(c.z, 0), 1) * 255).rounded()))
    }
}
