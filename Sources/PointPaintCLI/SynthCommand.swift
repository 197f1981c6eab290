import ArgumentParser
import Foundation
import PointPaint

/// `pointpaint synth`: renders a synthetic capture with known ground truth.
struct SynthCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "synth",
        abstract: "Synthesize a capture of a textured 3D scene, with its ground truth in truth.ply.",
        discussion: """
            --layout writes the scene as PointPaint's own format (v1: NV12 or PNG planes and \
            feature points) or as an iPhone scanning app records it, with LiDAR-like depth and \
            confidence maps: stray (Stray Scanner, JPEG frames in rgb/), record3d (a .r3d file when \
            -o ends in .r3d, else the EXR + JPG export folder), polycam (raw data), scanner-app (3D \
            Scanner App "All Data") or nerfstudio (transforms.json). Poses follow an arc, so a \
            reader that gets an axis or a quaternion order wrong misplaces every point.
            """)

    @Option(name: .shortAndLong, help: "Capture directory to write (a .r3d file for --layout record3d).")
    var output: String
    @Option(help: "Layout to write.")
    var layout: SynthLayout = .v1
    @Option(help: "Frames to render.")
    var frames = 40
    @Option(help: "Image size, WIDTHxHEIGHT (both even).")
    var size = PixelSize(width: 640, height: 480)
    @Option(help: "Feature points a frame.")
    var points = 300
    @Option(help: "Primaries of the encoded colour.")
    var primaries: ColorPrimaries = .srgb
    @Option(help: "Code range.")
    var range: YCbCrRange = .full
    @Option(help: "Y'CbCr matrix.")
    var matrix: YCbCrMatrix = .bt601
    @Option(help: "Chroma siting.")
    var siting: ChromaSiting = .center
    @Option(help: "Frame image encoding of the v1 layout (nv12: raw planes; png: three plane PNGs). Default: nv12.")
    var encoding: CaptureImageEncoding?
    @Option(help: "Standard deviation of feature-point position noise, metres.")
    var noise = 0.002
    @Option(help: "Random seed.")
    var seed: UInt64 = 1
    @Flag(help: "Add two striped posts between the camera's path and the objects, hiding different parts of the scene from different frames (a test of visibility).")
    var occluders = false
    @Option(help: "Also write scene.ply beside the capture: the scene's surfaces sampled every SPACING metres (hidden parts included), with their true colours and a 'flat' flag (smooth texture around the point), as a cloud to paint.")
    var sceneCloud: Double?
    @Option(help: "Drift each frame's exposure and white balance: per-channel gains in linear light from 1 down to about e^(-1.3 A) (0: none).")
    var exposureDrift = 0.0
    @Option(help: ArgumentHelp("Record poses that drift from the true ones, smoothly, to T metres and R degrees by the last frame (frames are rendered from the true poses, which go to truth-poses.json for replay --poses).",
                               valueName: "T,R"))
    var poseDrift: String?

    /// `--pose-drift` as metres and degrees (0, 0 when not given).
    var drift: (metres: Double, degrees: Double)? {
        guard let poseDrift else { return (0, 0) }
        let parts = poseDrift.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let t = parts[0], let r = parts[1], t >= 0, t <= 1, r >= 0, r <= 10 else { return nil }
        return (t, r)
    }

    func validate() throws {
        typealias Limits = CaptureSynthesizer.Options
        let largest = Limits.maximumDimension
        guard size.width % 2 == 0, size.height % 2 == 0, size.width >= 2, size.height >= 2,
              size.width <= largest, size.height <= largest
        else { throw ValidationError("--size must be even in both directions, from 2x2 to \(largest)x\(largest); found \(size)") }
        guard frames >= 1, frames <= Limits.maximumFrameCount else {
            throw ValidationError("--frames must be from 1 to \(Limits.maximumFrameCount); found \(frames)")
        }
        guard points >= 0, points <= Limits.maximumPointsPerFrame else {
            throw ValidationError("--points must be from 0 to \(Limits.maximumPointsPerFrame) a frame; found \(points)")
        }
        // Both are bounded above, so the product cannot overflow.
        guard frames * points <= Limits.maximumTotalPoints else {
            throw ValidationError("--frames × --points must be at most \(Limits.maximumTotalPoints) feature points in all; found \(frames) × \(points)")
        }
        guard noise >= 0, noise.isFinite else { throw ValidationError("--noise must be a non-negative number") }
        if let sceneCloud, !(sceneCloud >= 0.005 && sceneCloud.isFinite) { throw ValidationError("--scene-cloud must be a spacing of at least 0.005 metres; found \(sceneCloud)") }
        guard exposureDrift >= 0, exposureDrift <= 1 else { throw ValidationError("--exposure-drift must be from 0 to 1; found \(exposureDrift)") }
        guard drift != nil else {
            throw ValidationError("--pose-drift must be T,R: metres from 0 to 1 and degrees from 0 to 10; found \(poseDrift ?? "")")
        }
        if layout == .record3d, poseDrift != nil {
            throw ValidationError("--pose-drift applies to the v1, stray, polycam, scanner-app and nerfstudio layouts, not to record3d")
        }
        guard encoding == nil || layout == .v1 else {
            throw ValidationError("--encoding applies to the v1 layout only; --layout \(layout.rawValue) stores frames as the app does")
        }
    }

    func run() throws {
        var options = CaptureSynthesizer.Options(frames: frames, width: size.width, height: size.height, pointsPerFrame: points)
        options.primaries = primaries
        options.range = range
        options.matrix = matrix
        options.chromaSiting = siting
        options.positionNoise = noise
        options.seed = seed
        options.exposureDrift = exposureDrift
        if let drift {
            options.poseDriftMetres = drift.metres
            options.poseDriftDegrees = drift.degrees
        }
        let synthesizer = CaptureSynthesizer(options: options, scene: occluders ? .occluded : .standard)
        let start = Date()
        let truth: [CaptureSynthesizer.TruthPoint]
        let what: String
        switch layout {
        case .v1:
            let encoding = encoding ?? .nv12
            truth = try synthesizer.write(to: output, encoding: encoding)
            what = "\(truth.count) feature points, \(encoding.rawValue) planes"
        case .stray:
            truth = try synthesizer.writeStray(to: output)
            what = "Stray Scanner layout (JPEG frames, depth and confidence maps)"
        case .record3d:
            if output.lowercased().hasSuffix(".r3d") {
                truth = try synthesizer.writeRecord3D(to: output)
                what = "Record3D .r3d (portrait JPEG frames, LZFSE depth and confidence)"
            } else {
                truth = try synthesizer.writeRecord3DExport(to: output)
                what = "Record3D EXR + JPG export (portrait frames)"
            }
        case .polycam:
            truth = try synthesizer.writePolycam(to: output)
            what = "Polycam raw data (corrected and raw sets, depth and confidence maps)"
        case .scannerApp:
            truth = try synthesizer.writeScannerApp(to: output)
            what = "3D Scanner App export (frame JSON, JPEG, depth and confidence maps)"
        case .nerfstudio:
            truth = try synthesizer.writeNerfstudio(to: output)
            what = "nerfstudio transforms.json (JPEG frames, depth maps)"
        }
        let directory = layout == .record3d && output.lowercased().hasSuffix(".r3d") ? URL(fileURLWithPath: output).deletingLastPathComponent().path : output
        if let sceneCloud {
            let path = (directory as NSString).appendingPathComponent("scene.ply")
            try PLYWriter.write(Self.sceneCloud(synthesizer.scene.surfaceSamples(spacing: sceneCloud), primaries: primaries), to: path)
        }
        if poseDrift != nil {
            try synthesizer.truePoses().write(to: (directory as NSString).appendingPathComponent("truth-poses.json"))
        }
        let seconds = Date().timeIntervalSince(start)
        print("wrote \(output): \(frames) frames of \(size), \(what), \(range.rawValue)-range \(matrix.rawValue), \(primaries.rawValue), in \(String(format: "%.2f", seconds)) s")
    }
}

extension SynthCommand {
    /// Surface samples as a PLY cloud: positions, true colours (8-bit and exact extended sRGB),
    /// the box each lies on and whether its texture is flat around it.
    static func sceneCloud(_ samples: [SyntheticScene.SurfaceSample], primaries: ColorPrimaries) -> PLYFile {
        let conversion = ColorConversion(from: primaries, to: .srgb)
        let colors = samples.map { SIMD3<Float>(conversion.convert($0.color).encoded) }
        let properties = [
            PLYProperty(name: "x", values: .float32(samples.map { Float($0.position.x) })),
            PLYProperty(name: "y", values: .float32(samples.map { Float($0.position.y) })),
            PLYProperty(name: "z", values: .float32(samples.map { Float($0.position.z) })),
            PLYProperty(name: "red", values: .uint8(colors.map { ColorMath.byte($0.x) })),
            PLYProperty(name: "green", values: .uint8(colors.map { ColorMath.byte($0.y) })),
            PLYProperty(name: "blue", values: .uint8(colors.map { ColorMath.byte($0.z) })),
            PLYProperty(name: "red_f", values: .float32(colors.map(\.x))),
            PLYProperty(name: "green_f", values: .float32(colors.map(\.y))),
            PLYProperty(name: "blue_f", values: .float32(colors.map(\.z))),
            PLYProperty(name: "box", values: .uint8(samples.map { UInt8(truncatingIfNeeded: $0.box) })),
            PLYProperty(name: "flat", values: .uint8(samples.map { $0.isFlat ? 1 : 0 })),
        ]
        return PLYFile(comments: ["generated by PointPaint synth: the scene's surfaces with their true colours (extended sRGB)"],
                       elements: [PLYElement(name: "vertex", count: samples.count, properties: properties)])
    }
}

/// The layouts `synth --layout` writes: PointPaint's own, or an app's.
enum SynthLayout: String, CaseIterable, ExpressibleByArgument {
    case v1, stray, record3d, polycam
    case scannerApp = "scanner-app"
    case nerfstudio
}
