import Foundation
import Testing
@testable import PointPaint

/// Holds a capture source read from a synthesizer layout to the synthesizer's truth: cameras,
/// depth maps and images as written, and the accuracy the issue asks for — points from depth on
/// the scene's surfaces, and the colours sampled there equal to the surfaces' true colours.
enum CaptureSourceTruth {
    /// The small synthesizer every source test writes layouts with: 160 × 120 frames (depth maps
    /// 64 × 48), a few frames along the arc, so poses are not the identity.
    static func synthesizer(frames: Int = 4) -> CaptureSynthesizer {
        let options = CaptureSynthesizer.Options(frames: frames, width: 160, height: 120, pointsPerFrame: 20)
        return CaptureSynthesizer(options: options)
    }

    /// A layout written once (by `write`, into a fresh folder), kept for the test run and copied
    /// for each test that damages it: writing one takes a second or so, copying it nothing.
    /// The layouts live in one folder of this process's, removed when the process exits.
    final class Layout: Sendable {
        private let result: Result<String, PointPaintError>

        /// The folder of this process's layouts.
        private static var folder: String { NSTemporaryDirectory() + "/pointpaint-layouts-\(getpid())" }
        /// Removes the folder at exit, registered once.
        private static let cleanUp: Void = { atexit { try? FileManager.default.removeItem(atPath: Layout.folder) } }()

        init(_ write: (String) throws -> Void) {
            Self.cleanUp
            let path = Self.folder + "/" + UUID().uuidString
            result = Result {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
                try write(path)
                return path
            }.mapError { $0 as? PointPaintError ?? PointPaintError(.malformed, "\($0)") }
        }

        /// A fresh copy of the layout.
        func copy() throws -> TemporaryDirectory {
            let original = try result.get()
            let dir = TemporaryDirectory("copy")
            for name in try FileManager.default.contentsOfDirectory(atPath: original) {
                try FileManager.default.copyItem(atPath: original + "/" + name, toPath: dir.file(name))
            }
            return dir
        }
    }

    /// How far points from depth lie from the surfaces, and how far their sampled colours are
    /// from the surfaces' own.
    struct Accuracy: CustomStringConvertible {
        /// Points measured, and those whose colour was (on surfaces of one colour around them).
        var points = 0, colourPoints = 0
        /// Mean and 95th percentile distance to the surface, millimetres.
        var positionMean = 0.0, positionP95 = 0.0
        /// Mean and 95th percentile of the largest channel difference, 8-bit levels.
        var colourMean = 0.0, colourP95 = 0.0

        var description: String {
            String(format: "%d points (%d for colour); position mean %.3f mm, p95 %.3f mm; colour mean %.2f, p95 %.2f levels",
                   points, colourPoints, positionMean, positionP95, colourMean, colourP95)
        }
    }

    /// Checks frame `index` of `source` against frame `truthFrame` of `synth`: the camera equals
    /// the synthesizer's within 1e-6 and the image is within a few codes of its planes.
    static func expectFrame(_ frame: CaptureFrame, equals truthFrame: Int, of synth: CaptureSynthesizer,
                            sourceLocation: SourceLocation = #_sourceLocation) {
        let truth = synth.camera(frame: truthFrame)
        let k = frame.camera.intrinsics, t = truth.intrinsics
        let intrinsicsError: Double = [k.fx - t.fx, k.fy - t.fy, k.cx - t.cx, k.cy - t.cy].map(abs).max()!
        let poseError = zip(frame.camera.transform.columnMajor, truth.transform.columnMajor).map { abs($0 - $1) }.max()!
        #expect(intrinsicsError <= 1e-6 && poseError <= 1e-6,
                "frame \(frame.index): intrinsics off by \(intrinsicsError), pose by \(poseError)", sourceLocation: sourceLocation)
        // JPEG at quality 95 over the synthesizer's own planes: a few codes at most, most exact.
        let ours = YCbCrPlanes(frame.image), theirs = YCbCrPlanes(synth.encode(synth.render(frame: truthFrame)))
        let a: [UInt8] = ours.luma + ours.cb + ours.cr, b: [UInt8] = theirs.luma + theirs.cb + theirs.cr
        let differences: [Int] = zip(a, b).map { abs(Int($0) - Int($1)) }
        let mean = Double(differences.reduce(0, +)) / Double(differences.count)
        #expect(mean < 1.5 && differences.max()! <= 16, "frame \(frame.index): planes differ by \(mean) on average, \(differences.max()!) at most",
                sourceLocation: sourceLocation)
    }

    /// Checks `frames` of `source` (source index → synthesizer frame) against the synthesizer:
    /// `frameInfo` agrees with the loaded frame, the camera and image with `expectFrame`, the
    /// depth map with what was written (`confidence`: with the confidence map), and `jpegData`
    /// with the file `jpegFile` names, byte for byte (none: `jpegData` is nil).
    static func expectFrames(_ source: some CaptureSource, _ frames: [(Int, Int)], of synth: CaptureSynthesizer, confidence: Bool = true,
                             jpegFile: (Int) -> String?, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for (index, truthFrame) in frames {
            let info = try source.frameInfo(at: index)
            let frame = try source.frame(at: index)
            #expect(frame.index == index && frame.timestamp == info.timestamp && frame.camera == info.camera && frame.points == nil,
                    sourceLocation: sourceLocation)
            expectFrame(frame, equals: truthFrame, of: synth, sourceLocation: sourceLocation)
            #expect(frame.depth == writtenDepth(synth, frame: truthFrame, confidence: confidence), sourceLocation: sourceLocation)
            #expect(try source.jpegData(at: index) == jpegFile(index).map { try FileBytes.read($0) }, sourceLocation: sourceLocation)
        }
    }

    /// Points from the depth maps of `frames` (source index → synthesizer frame) against the
    /// scene: each point's distance to the surface the true camera sees in its direction, and
    /// the colour `CapturedImageSampler` gives at the point's pixel against that surface's true
    /// colour.
    /// Only high-confidence depth is used (silhouettes are not), as replay does by default.
    static func accuracy(of source: some CaptureSource, frames: [(Int, Int)], synth: CaptureSynthesizer) throws -> Accuracy {
        var distances: [Double] = [], colours: [Double] = []
        let w = source.imageInfo.width, h = source.imageInfo.height
        for (index, truthFrame) in frames {
            let frame = try source.frame(at: index)
            let depth = try #require(frame.depth)
            var positions: [SIMD3<Float>] = [], coordinates: [SIMD2<Float>] = []
            var sampling = DepthSampling()
            sampling.maximumDepth = 100
            depth.appendPoints(camera: frame.camera, imageWidth: w, imageHeight: h, sampling: sampling, positions: &positions, coordinates: &coordinates)
            let sampler = CapturedImageSampler(image: frame.image, encoding: source.imageInfo.encoding, siting: source.imageInfo.chromaSiting,
                                               primaries: source.imageInfo.primaries)
            let camera = synth.camera(frame: truthFrame)
            for (p, st) in zip(positions, coordinates) {
                // The surface the true camera sees in the point's direction: a point from depth
                // lies on it, and its colour (sampled at the point's own pixel, as replay does)
                // is that surface's. A point put elsewhere by a wrong pose is off both.
                let toPoint = SIMD3<Double>(p) - camera.position
                let direction = toPoint / (toPoint * toPoint).sum().squareRoot()
                guard let hit = synth.scene.intersect(origin: camera.position, direction: direction) else {
                    distances.append(.infinity)
                    continue
                }
                distances.append(((SIMD3<Double>(p) - hit.point) * (SIMD3<Double>(p) - hit.point)).sum().squareRoot() * 1000)
                guard case .visible(let s, let t) = camera.project(hit.point, width: w, height: h) else { continue }
                // Colour is held to the truth where the surface has one colour across what the
                // sampler reads (bilinear luma, 4:2:0 chroma: 2.5 pixels around), as the
                // synthesizer's feature points are: on an edge the truth is the edge.
                let truth = synth.scene.color(at: hit.point, box: hit.box)
                let u = s * Double(w), v = t * Double(h)
                let flat = [(-2.5, 0.0), (2.5, 0), (0, -2.5), (0, 2.5), (-2.5, -2.5), (2.5, 2.5), (-2.5, 2.5), (2.5, -2.5)].allSatisfy { du, dv in
                    let ray = camera.ray(u: u + du, v: v + dv)
                    guard let near = synth.scene.intersect(origin: ray.origin, direction: ray.direction), near.box == hit.box else { return false }
                    let d = synth.scene.color(at: near.point, box: near.box) - truth
                    return max(abs(d.x), abs(d.y), abs(d.z)) <= CaptureSynthesizer.edgeTolerance
                }
                guard flat else { continue }
                let sampled = try #require(sampler.color(at: SIMD2<Double>(st)))
                let d = (SIMD3<Double>(sampled) - truth) * 255
                colours.append(max(abs(d.x), abs(d.y), abs(d.z)))
            }
        }
        // No values: infinitely bad.
        func mean(_ values: [Double]) -> Double { values.isEmpty ? .infinity : values.reduce(0, +) / Double(values.count) }
        func p95(_ values: [Double]) -> Double { values.isEmpty ? .infinity : values.sorted()[values.count * 95 / 100] }
        return Accuracy(points: distances.count, colourPoints: colours.count, positionMean: mean(distances), positionP95: p95(distances),
                        colourMean: mean(colours), colourP95: p95(colours))
    }

    /// Expects the accuracy of `accuracy(of:frames:synth:)` for a layout of 64 × 48 depth maps:
    /// positions within the millimetre rounding of 16-bit depth (a mean of a quarter millimetre),
    /// colours within the few levels of JPEG at quality 95 and 4:2:0 chroma. A wrong axis,
    /// transpose or depth unit puts points centimetres to metres off and colours tens of levels.
    static func expectAccurate(_ source: some CaptureSource, frames: [(Int, Int)], synth: CaptureSynthesizer,
                               sourceLocation: SourceLocation = #_sourceLocation) throws {
        let accuracy = try accuracy(of: source, frames: frames, synth: synth)
        #expect(accuracy.points > frames.count * 64 * 48 / 2, "\(accuracy)", sourceLocation: sourceLocation)
        #expect(accuracy.positionMean < 0.35 && accuracy.positionP95 < 0.7, "\(accuracy)", sourceLocation: sourceLocation)
        #expect(accuracy.colourPoints > frames.count * 250 && accuracy.colourMean < 3.5 && accuracy.colourP95 < 9, "\(accuracy)",
                sourceLocation: sourceLocation)
    }

    /// `expectAccurate` for frames stored as 8-bit R′G′B′ (PNG) and read as Y′CbCr 4:4:4: the
    /// same positions, and colours within what rounding the PNG (half a level) and converting it
    /// to 8-bit Y′CbCr (`YCbCrPlanes(rgb8:…)`: 1.39 levels at most) leaves, p95 included; a
    /// chroma plane read at the wrong resolution or position smears edges by tens of levels.
    static func expectAccurateRGB(_ source: some CaptureSource, frames: [(Int, Int)], synth: CaptureSynthesizer,
                                  sourceLocation: SourceLocation = #_sourceLocation) throws {
        let accuracy = try accuracy(of: source, frames: frames, synth: synth)
        #expect(accuracy.points > frames.count * 64 * 48 / 2, "\(accuracy)", sourceLocation: sourceLocation)
        #expect(accuracy.positionMean < 0.35 && accuracy.positionP95 < 0.7, "\(accuracy)", sourceLocation: sourceLocation)
        #expect(accuracy.colourPoints > frames.count * 250 && accuracy.colourMean < 1 && accuracy.colourP95 < 0.5 + 1.39, "\(accuracy)",
                sourceLocation: sourceLocation)
    }

    /// The depth map the synthesizer wrote for frame `index`: its rendering in whole millimetres.
    static func writtenDepth(_ synth: CaptureSynthesizer, frame index: Int, confidence: Bool = true) -> DepthMap {
        let size = synth.appDepthSize
        let map = synth.renderDepth(frame: index, width: size.width, height: size.height)
        return DepthMap(width: map.width, height: map.height, millimetres: CaptureSynthesizer.millimetres(map), confidence: confidence ? map.confidence : nil)
    }

    /// Runs `body`, expecting a `PointPaintError` of `kind` at `place` whose file ends with
    /// `file` (when given), in one line.
    static func expectError(_ kind: PointPaintError.Kind, at place: PointPaintError.Place?, file: String? = nil,
                            sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) {
        do {
            try body()
            Issue.record("expected a \(kind) error at \(place?.description ?? "no place")", sourceLocation: sourceLocation)
        } catch let error as PointPaintError {
            #expect(error.kind == kind && error.place == place, "\(error)", sourceLocation: sourceLocation)
            if let file { #expect(error.file?.hasSuffix(file) == true, "\(error)", sourceLocation: sourceLocation) }
            #expect(!error.description.contains("\n"), sourceLocation: sourceLocation)
        } catch {
            Issue.record("expected a PointPaintError, found \(error)", sourceLocation: sourceLocation)
        }
    }

    /// Reads the JSON object at `path`, lets `edit` change it, and writes it back.
    static func editJSON(_ path: String, _ edit: (inout [String: Any]) -> Void) throws {
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        edit(&object)
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
    }

    /// Replaces `old` with `new` in the text file at `path` (which must contain it).
    static func replace(_ old: String, with new: String, in path: String) throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains(old), "\(path) does not contain \(old)")
        try text.replacingOccurrences(of: old, with: new).write(toFile: path, atomically: true, encoding: .utf8)
    }
}
