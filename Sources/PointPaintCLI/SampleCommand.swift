import ArgumentParser
import Foundation
import PointPaint

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
struct SampleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sample",
        abstract: "Print the colour of a frame at scalar image coordinates (0…1, origin top-left).")

    @OptionGroup var frame: FrameOptions
    @Option(name: .customLong("at"), help: "Coordinate S,T; repeat for more.")
    var points: [ScalarPoint] = []
    @Option(help: "Orientation the coordinates were taken in.")
    var orientation: DisplayOrientation = .landscapeRight
    @Option(help: "Viewport (screen) size WIDTHxHEIGHT the coordinates are fractions of, when the image fills it aspect-fill as ARKit shows it.")
    var viewport: PixelSize?
    @Option(help: "How the image is read between pixels.")
    var interpolation: Interpolation = .bilinear
    @Option(help: "Output space.")
    var space: SampleSpace = .srgb
    @Flag(help: "Clamp coordinates outside 0…1 onto the image instead of reporting them as outside.")
    var clamp = false
    @Flag(help: "Print JSON for scripts.")
    var json = false

    func validate() throws {
        guard !points.isEmpty else { throw ValidationError("give at least one --at S,T") }
        if let bad = points.first(where: { !$0.value.x.isFinite || !$0.value.y.isFinite }) {
            throw ValidationError("--at \(bad.text): expected two finite numbers S,T")
        }
    }

    func run() throws {
        let (source, encoding) = try frame.open()
        let index = frame.index
        let info = source.imageInfo
        var sampler = CapturedImageSampler(image: try source.frame(at: index).image, encoding: encoding, siting: info.chromaSiting,
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
        SIMD3<Int>(truncatingIfNeeded: ColorMath.bytes(c))
    }
}
