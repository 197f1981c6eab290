import Foundation

/// Renders synthetic captures of `SyntheticScene` from a moving camera: frames encoded to
/// Y′CbCr 4:2:0 exactly as docs/DESIGN.md defines it ("Y′CbCr decoding", inverted; chroma per
/// "Texel positions and chroma siting"), feature points on visible surfaces with small position
/// noise (as ARKit's are), and the ground truth of every point. Deterministic for a seed.
public struct CaptureSynthesizer: Sendable {
    /// Options of a synthesized capture.
    public struct Options: Sendable {
        /// Frames to render.
        public var frameCount = 40
        /// Image width (even).
        public var width = 640
        /// Image height (even).
        public var height = 480
        /// Feature points a frame (fewer when rays miss the scene).
        public var pointsPerFrame = 300
        /// Primaries of the encoded R′G′B′.
        public var primaries: ColorPrimaries = .srgb
        /// Code range.
        public var range: YCbCrRange = .full
        /// Y′CbCr matrix.
        public var matrix: YCbCrMatrix = .bt601
        /// Chroma siting.
        public var chromaSiting: ChromaSiting = .center
        /// Standard deviation of the feature points' position noise, metres.
        public var positionNoise = 0.002
        /// Frames a second (timestamps).
        public var frameRate = 30.0
        /// Random seed.
        public var seed: UInt64 = 1
        /// The cameras' focal length in pixels; nil: 0.8 × `width`, about a 64° horizontal field
        /// of view, like an iPhone's wide camera. (A portrait frame of that camera keeps the
        /// landscape frame's focal length on its swapped sides.)
        public var focalLength: Double?
        /// How far each frame's exposure and white balance drift (`exposureGain(frame:)`): 0 for
        /// none; 0.5 darkens frames by up to about half in linear light.
        public var exposureDrift = 0.0
        /// How far the recorded poses drift from the true ones by the last frame
        /// (`poseDrift(frame:)`): the camera centre by this many metres, and it turns by
        /// `poseDriftDegrees`. Frames are rendered from the true poses; 0 and 0 record those.
        public var poseDriftMetres = 0.0
        /// How far the recorded cameras turn from the true ones by the last frame, degrees.
        public var poseDriftDegrees = 0.0

        /// Default options: 40 frames of 640×480, full-range BT.601 sRGB (ARKit's format).
        public init() {}

        /// Default options but for the size of the capture: `frames` frames of `width`×`height`
        /// with `pointsPerFrame` feature points each (nil keeps the default).
        public init(frames: Int, width: Int, height: Int, pointsPerFrame: Int? = nil) {
            frameCount = frames
            self.width = width
            self.height = height
            if let pointsPerFrame { self.pointsPerFrame = pointsPerFrame }
        }

        /// The largest width or height worth synthesizing: a frame is rendered at 32 bytes a
        /// pixel before encoding, so 4096×4096 already takes 0.5 GB.
        public static let maximumDimension = 4096
        /// The most feature points a frame.
        public static let maximumPointsPerFrame = 1_000_000
        /// The most frames.
        public static let maximumFrameCount = 100_000
        /// The most feature points in a whole capture: their truth (about 110 bytes each) is kept
        /// in memory until `truth.ply` is written.
        public static let maximumTotalPoints = 10_000_000

        /// The manifest's image block for these options.
        public var imageInfo: CaptureImageInfo {
            CaptureImageInfo(width: width, height: height, range: range, matrix: matrix, primaries: primaries, chromaSiting: chromaSiting)
        }
    }

    /// The ground truth of one feature point.
    public struct TruthPoint: Sendable, Equatable {
        /// Frame the point was recorded with.
        public var frame: Int
        /// Its identifier (as in the `.xyz` file).
        public var id: UInt64
        /// The recorded (noisy) position, as in the `.xyz` file.
        public var position: SIMD3<Float>
        /// The exact surface point the feature lies on.
        public var surfacePoint: SIMD3<Float>
        /// True surface colour as encoded R′G′B′ in the capture's primaries.
        public var color: SIMD3<Double>
        /// True surface colour as extended sRGB (encoded, unclamped).
        public var extendedSRGB: SIMD3<Double>
    }

    /// The options.
    public var options: Options
    /// The scene.
    public var scene: SyntheticScene

    /// Creates a synthesizer.
    public init(options: Options = Options(), scene: SyntheticScene = .standard) {
        self.options = options
        self.scene = scene
    }

    /// The camera of frame `index`: an arc around the objects, looking at them.
    public func camera(frame index: Int) -> Camera {
        let w = Double(options.width), h = Double(options.height)
        let f = options.focalLength ?? 0.8 * w
        let progress = options.frameCount > 1 ? Double(index) / Double(options.frameCount - 1) : 0.5
        let angle = (-50 + 100 * progress) * .pi / 180
        let radius = 2.7 - 0.4 * sin(progress * .pi)
        let target = SIMD3<Double>(0, 0.45, -0.3)
        let eye = SIMD3<Double>(radius * sin(angle), 1.45 + 0.15 * sin(3 * progress * .pi), -0.3 + radius * cos(angle))
        // ARKit camera axes: +x right, +y up, looking down −z.
        func normalize(_ v: SIMD3<Double>) -> SIMD3<Double> { v / (v * v).sum().squareRoot() }
        func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
            SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
        }
        let z = normalize(eye - target)
        let x = normalize(cross(SIMD3(0, 1, 0), z))
        let y = cross(z, x)
        let transform = Matrix4x4(columns: SIMD4(x, 0), SIMD4(y, 0), SIMD4(z, 0), SIMD4(eye, 1))
        return Camera(intrinsics: CameraIntrinsics(fx: f, fy: f, cx: w / 2, cy: h / 2), transform: transform)!
    }

    /// Renders frame `index` to R′G′B′ (capture primaries), row-major, one sample a pixel centre.
    public func render(frame index: Int) -> [SIMD3<Double>] {
        let camera = camera(frame: index)
        let w = options.width, h = options.height
        var pixels = [SIMD3<Double>](repeating: .zero, count: w * h)
        pixels.withUnsafeMutableBufferPointer { buffer in
            let out = SendablePointer(buffer.baseAddress!)
            DispatchQueue.concurrentPerform(iterations: h) { row in
                for col in 0 ..< w {
                    let ray = camera.ray(u: Double(col) + 0.5, v: Double(row) + 0.5)
                    if let hit = scene.intersect(origin: ray.origin, direction: ray.direction) {
                        out.base[row * w + col] = scene.color(at: hit.point, box: hit.box)
                    } else {
                        out.base[row * w + col] = scene.background * (0.85 + 0.15 * ray.direction.y)
                    }
                }
            }
        }
        return applyingExposure(pixels, frame: index)
    }

    /// Encodes R′G′B′ pixels to NV12: Y at every pixel; Cb, Cr from each 2×2 block (centre
    /// siting: the block's mean; left siting: a [1 2 1] filter across columns 2i−1…2i+1).
    public func encode(_ pixels: [SIMD3<Double>]) -> YCbCrImage {
        let w = options.width, h = options.height
        let encoding = YCbCrEncoding(matrix: options.matrix, range: options.range)
        let (yMax, cMin, cMax): (Double, Double, Double) = options.range == .full ? (255, 0, 255) : (235, 16, 240)
        let yMin: Double = options.range == .full ? 0 : 16
        func code(_ v: Double, _ lo: Double, _ hi: Double) -> UInt8 { UInt8(Swift.min(Swift.max(v.rounded(), lo), hi)) }
        var luma = [UInt8](repeating: 0, count: w * h)
        var chroma = [UInt8](repeating: 0, count: w * h / 2)
        for i in 0 ..< w * h { luma[i] = code(encoding.ycbcr(rgb: pixels[i]).x, yMin, yMax) }
        for cy in 0 ..< h / 2 {
            for cx in 0 ..< w / 2 {
                var sum = SIMD3<Double>()
                var weight = 0.0
                for row in [2 * cy, 2 * cy + 1] {
                    switch options.chromaSiting {
                    case .center:
                        for col in [2 * cx, 2 * cx + 1] {
                            sum += pixels[row * w + col]
                            weight += 1
                        }
                    case .left:
                        for (col, k) in [(2 * cx - 1, 1.0), (2 * cx, 2.0), (2 * cx + 1, 1.0)] {
                            let c = Swift.min(Swift.max(col, 0), w - 1)
                            sum += pixels[row * w + c] * k
                            weight += k
                        }
                    }
                }
                let ycc = encoding.ycbcr(rgb: sum / weight)
                chroma[cy * w + 2 * cx] = code(ycc.y, cMin, cMax)
                chroma[cy * w + 2 * cx + 1] = code(ycc.z, cMin, cMax)
            }
        }
        return YCbCrImage(width: w, height: h, lumaPlane: luma, chromaPlane: chroma)
    }

    /// Places feature points of frame `index` on visible surfaces; returns the recorded points
    /// and their truth.
    ///
    /// Points sit on textured surfaces but not on a colour edge or a silhouette: across the few
    /// pixels around the point that a 4:2:0 sampler reads, the surface must be the same box and
    /// no channel may change by more than `edgeTolerance` (smooth gradients pass, edges do not), so each point has one true colour that an exact sampler can
    /// reproduce. (ARKit's own features sit on corners; for ground truth that would measure the
    /// edge, not the sampler.)
    func featurePoints(frame index: Int, camera: Camera, nextID: inout UInt64, random: inout SplitMix64) -> ([FeaturePoint], [TruthPoint]) {
        var points: [FeaturePoint] = []
        var truth: [TruthPoint] = []
        let conversion = ColorConversion(from: options.primaries, to: .srgb)
        let w = Double(options.width), h = Double(options.height)
        let reach = 2.5 // pixels around the point that bilinear luma and 4:2:0 chroma read
        var attempts = 0
        let (product, overflow) = options.pointsPerFrame.multipliedReportingOverflow(by: 8)
        let maximumAttempts = overflow ? Int.max : product
        while points.count < options.pointsPerFrame, attempts < maximumAttempts {
            attempts += 1
            let u = reach + random.unit() * (w - 2 * reach), v = reach + random.unit() * (h - 2 * reach)
            let ray = camera.ray(u: u, v: v)
            guard let hit = scene.intersect(origin: ray.origin, direction: ray.direction) else { continue }
            let color = scene.color(at: hit.point, box: hit.box)
            guard isFlat(around: (u, v), box: hit.box, color: color, camera: camera, reach: reach) else { continue }
            let noise = SIMD3(random.gaussian(), random.gaussian(), random.gaussian()) * options.positionNoise
            let recorded = SIMD3<Float>(hit.point + noise)
            let id = nextID
            nextID += 1
            points.append(FeaturePoint(position: recorded, id: id))
            truth.append(TruthPoint(frame: index, id: id, position: recorded, surfacePoint: SIMD3<Float>(hit.point),
                                    color: color, extendedSRGB: conversion.convert(color).encoded))
        }
        return (points, truth)
    }

    /// Feature points seen from frame `index` as the recording holds them: moved by the frame's
    /// pose drift (`poseDrift(frame:)`), as odometry places what it sees with its own pose.
    func recorded(_ points: [FeaturePoint], frame index: Int) -> [FeaturePoint] {
        guard options.poseDriftMetres > 0 || options.poseDriftDegrees > 0 else { return points }
        let drift = poseDrift(frame: index)
        return points.map { FeaturePoint(world: drift.transformPoint($0.world), id: $0.id) }
    }

    /// The largest channel change (0…1 scale) allowed within 2.5 pixels of a feature point.
    public static let edgeTolerance = 0.1

    private func isFlat(around p: (Double, Double), box: Int, color: SIMD3<Double>, camera: Camera, reach: Double) -> Bool {
        for (du, dv) in [(-reach, 0.0), (reach, 0), (0, -reach), (0, reach), (-reach, -reach), (reach, reach), (-reach, reach), (reach, -reach)] {
            let ray = camera.ray(u: p.0 + du, v: p.1 + dv)
            guard let hit = scene.intersect(origin: ray.origin, direction: ray.direction), hit.box == box else { return false }
            let d = scene.color(at: hit.point, box: hit.box) - color
            if max(Swift.abs(d.x), Swift.abs(d.y), Swift.abs(d.z)) > Self.edgeTolerance { return false }
        }
        return true
    }

    /// Writes a whole capture to `directory` (and `truth.ply` beside `capture.json`), calling
    /// `progress` after each frame. Returns the truth of every point.
    @discardableResult
    public func write(to directory: String, encoding: CaptureImageEncoding, progress: (Int) -> Void = { _ in }) throws -> [TruthPoint] {
        var writer = try CaptureWriter(directory: directory, imageInfo: options.imageInfo, encoding: encoding)
        var random = SplitMix64(seed: options.seed)
        var nextID: UInt64 = 1
        var truth: [TruthPoint] = []
        for index in 0 ..< options.frameCount {
            let camera = camera(frame: index)
            let image = encode(render(frame: index))
            let (points, frameTruth) = featurePoints(frame: index, camera: camera, nextID: &nextID, random: &random)
            truth += frameTruth
            try writer.append(image: image, camera: recordedCamera(frame: index), points: recorded(points, frame: index),
                              timestamp: Double(index) / options.frameRate)
            progress(index)
        }
        try TruthFile.write(truth, to: (directory as NSString).appendingPathComponent("truth.ply"))
        try writer.finish()
        return truth
    }
}
