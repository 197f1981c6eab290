import Foundation

/// A poses file (`poses.json`, docs/registration.md): for frames of one recording, the camera-to-
/// world pose the recording holds and a refined one to use instead, with how far each moved and
/// the residuals of the method that refined them. `replay --poses` and `paint --poses` use the
/// refined poses (`FramePassOptions.poses`); every shard of a distributed replay reads the same
/// file, so merges stay exact. `synth --pose-drift` writes the true poses of a drifted recording
/// in this form.
public struct CameraPoses: Sendable, Equatable {
    /// One frame's poses (camera to world, ARKit camera axes, metres).
    public struct Frame: Sendable, Equatable {
        /// The frame's index in the recording.
        public var index: Int
        /// The pose the recording holds.
        public var recorded: Matrix4x4
        /// The pose to use instead.
        public var refined: Matrix4x4
        /// The method's residual for this frame before and after refining (its unit is the
        /// method's: metres for geometry), when it measured one.
        public var residual: Residual?

        /// Creates a frame's poses.
        public init(index: Int, recorded: Matrix4x4, refined: Matrix4x4, residual: Residual? = nil) {
            self.index = index
            self.recorded = recorded
            self.refined = refined
            self.residual = residual
        }

        /// What moves the recorded world onto the refined one around this frame: refined ·
        /// recorded⁻¹ (the recorded pose is rigid). A point recorded with the frame (a feature
        /// point, in world space) belongs at `correction · p`.
        public var correction: Matrix4x4 { refined * recorded.rigidInverse }

        /// How far the camera centre moved, metres.
        public var moved: Double {
            let d = refined.translation - recorded.translation
            return (d * d).sum().squareRoot()
        }

        /// How far the camera turned, degrees.
        public var turned: Double { (recorded.rigidInverse * refined).rotationAngle * 180 / .pi }
    }

    /// A residual before and after refining.
    public struct Residual: Sendable, Equatable {
        public var before: Double, after: Double

        /// Creates a residual.
        public init(before: Double, after: Double) {
            self.before = before
            self.after = after
        }
    }

    /// The format's name and version, first in the file.
    public static let formatName = "pointpaint-poses", version = 1
    /// How far a file's recorded pose may be from the recording's, in metres and in rotation
    /// matrix elements, and still be the same frame: apps print poses with 6 to 17 digits.
    public static let identityTolerance = 1e-5
    /// The most frames a poses file may say its recording holds (a day at 120 fps).
    public static let maximumRecordingFrames = 10_368_000

    /// How the refined poses were found (`truth`, `geometric`, …).
    public var method: String
    /// The frames the recording holds.
    public var recordingFrames: Int
    /// The frame whose pose the refinement held fixed (the gauge), if any.
    public var anchor: Int?
    /// The frames, in increasing index; frames of the recording not listed keep their pose.
    public var frames: [Frame]
    /// The method's residual over all frames, when it measured one.
    public var residual: Residual?

    /// Creates a poses file's contents; `frames` are sorted by index.
    public init(method: String, recordingFrames: Int, anchor: Int? = nil, frames: [Frame], residual: Residual? = nil) {
        self.method = method
        self.recordingFrames = recordingFrames
        self.anchor = anchor
        self.frames = frames.sorted { $0.index < $1.index }
        self.residual = residual
    }

    /// The poses of frame `index`, or nil when the file does not list it.
    public func frame(_ index: Int) -> Frame? {
        var low = 0, high = frames.count
        while low < high {
            let mid = (low + high) / 2
            if frames[mid].index < index { low = mid + 1 } else { high = mid }
        }
        return low < frames.count && frames[low].index == index ? frames[low] : nil
    }
}

extension CameraPoses {
    /// Reads the poses file at `path`.
    /// - Throws: `.missing` or `.malformed` naming the JSON path of what is absent or not what it
    ///   should be: another format or version, a frame index outside the recording or listed
    ///   twice, a matrix that is not 4 × 4 finite numbers or not rigid (`.outOfRange`).
    public init(contentsOf path: String) throws {
        let json = try SourceJSON(contentsOf: path)
        let root = json.root
        guard try root["format"].string() == Self.formatName else { throw root["format"].failure("\"\(Self.formatName)\"") }
        guard try root["version"].number() == Double(Self.version) else { throw root["version"].failure("version \(Self.version)") }
        method = try root["method"].string()
        recordingFrames = try root["recording"]["frames"].positiveInteger(atMost: Self.maximumRecordingFrames)
        anchor = root["anchor"].exists ? try Self.index(root["anchor"], below: recordingFrames) : nil
        residual = root["residual"].exists ? try Self.residual(root["residual"]) : nil
        var frames: [Frame] = []
        for node in try root["frames"].array() {
            let index = try Self.index(node["index"], below: recordingFrames)
            if let last = frames.last, last.index >= index {
                throw node["index"].failure("an index greater than the previous frame's \(last.index)")
            }
            frames.append(Frame(index: index, recorded: try Self.pose(node["recorded"]), refined: try Self.pose(node["refined"]),
                                residual: node["residual"].exists ? try Self.residual(node["residual"]) : nil))
        }
        self.frames = frames
    }

    /// Reads the poses file at `path` and checks that it belongs to `source` (`check`).
    public init(contentsOf path: String, for source: any CaptureSource) throws {
        try self.init(contentsOf: path)
        try check(against: source, file: path)
    }

    private static func index(_ node: JSONNode, below count: Int) throws -> Int {
        let d = try node.number()
        guard d == d.rounded(), d >= 0, d < Double(count) else {
            throw node.failure("a frame index from 0 to \(count - 1)", kind: .outOfRange)
        }
        return Int(d)
    }

    private static func residual(_ node: JSONNode) throws -> Residual {
        Residual(before: try node["before"].number(), after: try node["after"].number())
    }

    /// A 4 × 4 rigid matrix written as four rows.
    private static func pose(_ node: JSONNode) throws -> Matrix4x4 {
        let rows = try node.matrix(rows: 4, columns: 4)
        var columnMajor = [Double](repeating: 0, count: 16)
        for r in 0 ..< 4 {
            for c in 0 ..< 4 { columnMajor[c * 4 + r] = rows[r * 4 + c] }
        }
        let m = Matrix4x4(columnMajor: columnMajor)
        let error = m.rigidError
        guard error <= Matrix4x4.rigidTolerance else {
            throw node.failure("a rigid camera-to-world matrix (rotation and translation, last row 0 0 0 1)", kind: .outOfRange)
        }
        return m
    }

    /// Checks that these poses belong to `source`: the same number of frames, and each listed
    /// frame's recorded pose the source's (within `identityTolerance`).
    /// - Throws: `.malformed` naming `file` (the poses file) and the first frame that differs;
    ///   the source's errors reading a frame's camera.
    public func check(against source: any CaptureSource, file: String) throws {
        guard recordingFrames == source.frameCount else {
            throw PointPaintError(.malformed, file: file, place: .jsonPath("recording.frames"),
                                  "expected the \(source.frameCount) frames of \(PointPaintError.quote(source.path, limit: 300)), found poses for a recording of \(recordingFrames)")
        }
        for frame in frames {
            let held = try source.frameInfo(at: frame.index).camera.transform
            let difference = zip(held.columnMajor, frame.recorded.columnMajor).map { abs($0 - $1) }.max() ?? 0
            guard difference <= Self.identityTolerance else {
                throw PointPaintError(.malformed, file: file, place: .jsonPath("frames[index \(frame.index)].recorded"),
                                      "expected the pose \(PointPaintError.quote(source.path, limit: 300)) records for frame \(frame.index), found one \(String(format: "%.3g", difference)) away: poses of another recording")
            }
        }
    }

    /// The file's JSON text: matrices as four rows, numbers in their shortest round-trip form (so
    /// reading the text gives these very values).
    public func jsonText() -> String {
        func matrix(_ m: Matrix4x4) -> String {
            "[" + (0 ..< 4).map { r in "[" + (0 ..< 4).map { c in "\(m[r, c])" }.joined(separator: ", ") + "]" }.joined(separator: ", ") + "]"
        }
        func text(_ r: Residual) -> String { "{\"before\": \(r.before), \"after\": \(r.after)}" }
        var out = "{\n"
        out += "  \"format\": \"\(Self.formatName)\",\n  \"version\": \(Self.version),\n"
        out += "  \"method\": \(JSONText.quote(method)),\n"
        out += "  \"recording\": {\"frames\": \(recordingFrames)},\n"
        if let anchor { out += "  \"anchor\": \(anchor),\n" }
        if let residual = self.residual { out += "  \"residual\": \(text(residual)),\n" }
        out += "  \"frames\": ["
        for (k, frame) in frames.enumerated() {
            out += k == 0 ? "\n" : ",\n"
            out += "    {\"index\": \(frame.index),\n"
            out += "     \"recorded\": \(matrix(frame.recorded)),\n"
            out += "     \"refined\": \(matrix(frame.refined)),\n"
            out += "     \"correction\": {\"matrix\": \(matrix(frame.correction)), \"metres\": \(frame.moved), \"degrees\": \(frame.turned)}"
            if let r = frame.residual { out += ",\n     \"residual\": \(text(r))" }
            out += "}"
        }
        out += frames.isEmpty ? "]\n}\n" : "\n  ]\n}\n"
        return out
    }

    /// Writes the file (through a temporary file, renamed).
    public func write(to path: String) throws {
        try AtomicFile.write(Data(jsonText().utf8), to: path)
    }
}
