import Foundation

extension Record3DCapture {
    /// Record3D's `metadata` (`metadata.json` in the export), checked and in PointPaint's terms:
    /// the RGB and depth sizes, `K` as intrinsics, `poses` as camera-to-world matrices (OpenGL
    /// camera axes, which are ARKit's), the timestamps, and what was assumed, for `notes`.
    struct Metadata {
        /// `w` × `h`: the RGB image as stored (portrait for a phone held upright).
        var width: Int, height: Int
        /// `dw` × `dh`, when present (older recordings lack them).
        var depthSize: (width: Int, height: Int)?
        /// `fps`, when present.
        var fps: Double?
        /// `K`: the first frame's intrinsics, for the image as stored.
        var intrinsics: CameraIntrinsics
        /// `perFrameIntrinsicCoeffs`, when it clearly holds fx, fy, cx, cy for every pose.
        var frameIntrinsics: [CameraIntrinsics]?
        /// `poses`, each camera-to-world.
        var poses: [Matrix4x4]
        /// `frameTimestamps`, when present.
        var timestamps: [Double]?
        /// What was read and assumed.
        var notes: [CaptureNote] = []

        /// The largest metadata read: 100 000 poses of seven numbers and their timestamps are
        /// about 20 MiB of text.
        static let maximumBytes = SourceJSON.defaultLimit

        /// How far `perFrameIntrinsicCoeffs`' focal lengths may be from `K`'s for it to be read
        /// as per-frame fx, fy, cx, cy (its layout is not documented).
        static let perFrameFocalTolerance = 0.25

        /// Reads and checks the metadata `json`.
        /// - Throws: `PointPaintError` at the JSON path: `.missing` keys; `.malformed` types,
        ///   lengths, non-finite numbers, a `K` not stored column by column and quaternions that
        ///   are not of unit length; `.outOfRange` sizes, focal lengths and frame rates.
        init(_ json: SourceJSON) throws {
            let root = json.root
            _ = try root.object()
            width = try root["w"].positiveInteger(atMost: CaptureManifest.maximumDimension)
            height = try root["h"].positiveInteger(atMost: CaptureManifest.maximumDimension)
            if root["dw"].exists || root["dh"].exists {
                depthSize = try (root["dw"].positiveInteger(atMost: CaptureManifest.maximumDimension),
                                 root["dh"].positiveInteger(atMost: CaptureManifest.maximumDimension))
            }
            fps = root["fps"].exists ? try root["fps"].positiveNumber() : nil
            intrinsics = try Self.intrinsics(root["K"], file: json.file)
            poses = try root["poses"].array().map(Self.pose)
            if root["frameTimestamps"].exists {
                timestamps = try root["frameTimestamps"].array().map { try $0.number() }
                notes.append(.timestamps("timestamps: frameTimestamps (seconds, Record3D's clock)"))
            } else {
                guard let fps else { throw root["fps"].failure("fps (frames a second), needed when frameTimestamps is absent") }
                notes.append(.timestamps("timestamps: frameTimestamps absent; frame N at N / fps (fps \(Self.text(fps)))"))
            }
            let coefficients = root["perFrameIntrinsicCoeffs"]
            if coefficients.exists {
                frameIntrinsics = perFrameIntrinsics(coefficients)
                notes.append(.camera(frameIntrinsics != nil
                    ? "intrinsics: perFrameIntrinsicCoeffs, read as fx, fy, cx, cy for each pose (close to K), for the stored \(imageDescription) image"
                    : "intrinsics: perFrameIntrinsicCoeffs ignored (its layout is undocumented, and it is not fx, fy, cx, cy close to K for each pose); K used for every frame"))
            }
            if frameIntrinsics == nil {
                notes.append(.camera("intrinsics: K (column-major), the first frame's, for the stored \(imageDescription) image; used for every frame"))
            }
            if root["initPose"].exists { notes.append(.ignored("initPose: ignored (its meaning is undocumented)")) }
        }

        /// The image's size, and whether it is portrait.
        var imageDescription: String { "\(width)x\(height)" + (height > width ? " portrait" : "") }

        /// `K`: nine numbers column by column, fx, 0, 0, 0, fy, 0, cx, cy, 1.
        private static func intrinsics(_ node: JSONNode, file: String) throws -> CameraIntrinsics {
            let k = try node.numbers(count: 9)
            guard [1, 2, 3, 5].allSatisfy({ abs(k[$0]) <= 1e-9 }), abs(k[8] - 1) <= 1e-9 else {
                let rowMajor = [1, 3, 6, 7].allSatisfy { abs(k[$0]) <= 1e-9 } && abs(k[8] - 1) <= 1e-9
                throw PointPaintError(.malformed, file: file, place: .jsonPath(node.path),
                                      "expected a camera matrix column by column (fx, 0, 0, 0, fy, 0, cx, cy, 1), found "
                                          + (rowMajor ? "it row by row" : k.map(text).joined(separator: ", ")))
            }
            guard k[0] > 0, k[4] > 0 else {
                throw PointPaintError(.outOfRange, file: file, place: .jsonPath(node.path), "expected positive focal lengths, found fx \(text(k[0])), fy \(text(k[4]))")
            }
            return CameraIntrinsics(fx: k[0], fy: k[4], cx: k[6], cy: k[7])
        }

        /// One pose, `[qx, qy, qz, qw, px, py, pz]`, as its camera-to-world matrix.
        private static func pose(_ node: JSONNode) throws -> Matrix4x4 {
            let p = try node.numbers(count: 7)
            let q = SIMD4(p[0], p[1], p[2], p[3])
            guard let unit = Matrix4x4.unitQuaternion(q) else {
                throw PointPaintError(.malformed, file: node.file, place: .jsonPath(node.path),
                                      "expected [qx, qy, qz, qw, px, py, pz] with a unit quaternion (length within \(Matrix4x4.quaternionTolerance) of 1), found one of length \(text((q * q).sum().squareRoot()))")
            }
            return Matrix4x4(quaternion: unit, translation: SIMD3(p[4], p[5], p[6]))
        }

        /// `perFrameIntrinsicCoeffs` as per-frame intrinsics when it clearly is one
        /// `[fx, fy, cx, cy]` per pose: focal lengths within 25 % of `K`'s, the principal point
        /// inside the image. Nil otherwise.
        private func perFrameIntrinsics(_ node: JSONNode) -> [CameraIntrinsics]? {
            guard let elements = try? node.array(), elements.count == poses.count, !elements.isEmpty else { return nil }
            var out: [CameraIntrinsics] = []
            for element in elements {
                guard let c = try? element.numbers(count: 4),
                      abs(c[0] / intrinsics.fx - 1) <= Self.perFrameFocalTolerance, abs(c[1] / intrinsics.fy - 1) <= Self.perFrameFocalTolerance,
                      c[2] > 0, c[2] < Double(width), c[3] > 0, c[3] < Double(height)
                else { return nil }
                out.append(CameraIntrinsics(fx: c[0], fy: c[1], cx: c[2], cy: c[3]))
            }
            return out
        }

        /// A number as people write it: 30, not 30.0.
        static func text(_ value: Double) -> String {
            value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
        }
    }
}
