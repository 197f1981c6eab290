import Foundation

/// The `image` block of a capture: what every frame's Y′CbCr planes are and mean.
public struct CaptureImageInfo: Sendable, Equatable {
    /// Width in pixels (even, at most `CaptureManifest.maximumDimension`).
    public var width: Int
    /// Height in pixels (even, at most `CaptureManifest.maximumDimension`).
    public var height: Int
    /// Code range: ARKit's `420f` is full, `420v` video.
    public var range: YCbCrRange
    /// Y′CbCr matrix.
    public var matrix: YCbCrMatrix
    /// Primaries of the decoded R′G′B′.
    public var primaries: ColorPrimaries
    /// Chroma siting (default centre).
    public var chromaSiting: ChromaSiting

    /// Creates image info; the defaults are ARKit's.
    public init(width: Int, height: Int, range: YCbCrRange = .full, matrix: YCbCrMatrix = .bt601,
                primaries: ColorPrimaries = .srgb, chromaSiting: ChromaSiting = .center) {
        self.width = width
        self.height = height
        self.range = range
        self.matrix = matrix
        self.primaries = primaries
        self.chromaSiting = chromaSiting
    }

    /// The matrix and range together.
    public var encoding: YCbCrEncoding { YCbCrEncoding(matrix: matrix, range: range) }
}

/// Where a frame's planes are stored, paths relative to the capture directory.
public enum FrameImageSource: Sendable, Equatable {
    /// One raw NV12 file: `height` rows of `lumaStride` bytes, then `height/2` rows of `chromaStride`.
    case nv12(path: String, lumaStride: Int, chromaStride: Int)
    /// Three 8-bit grey PNGs: Y at full size, Cb and Cr at half size.
    case planes(y: String, cb: String, cr: String)

    /// Every file the source names.
    public var paths: [String] {
        switch self {
        case .nv12(let path, _, _): [path]
        case .planes(let y, let cb, let cr): [y, cb, cr]
        }
    }
}

/// One entry of the manifest's `frames` array.
public struct CaptureFrameEntry: Sendable, Equatable {
    /// Seconds, increasing from frame to frame.
    public var timestamp: Double
    /// The planes.
    public var image: FrameImageSource
    /// The feature-point file (`.xyz` or `.ply`), relative to the capture directory.
    public var points: String
    /// Intrinsics and pose.
    public var camera: Camera

    /// Creates an entry.
    public init(timestamp: Double, image: FrameImageSource, points: String, camera: Camera) {
        self.timestamp = timestamp
        self.image = image
        self.points = points
        self.camera = camera
    }
}

/// `capture.json`, version 1: the contract between recorders and readers (see Captures/README.md).
public struct CaptureManifest: Sendable, Equatable {
    /// The value of the `format` field.
    public static let formatName = "pointpaint.capture"
    /// The version this code reads and writes.
    public static let version = 1
    /// The largest width or height accepted, so a lying header cannot ask for huge buffers.
    public static let maximumDimension = 16384
    /// The largest stride accepted, in bytes.
    public static let maximumStride = 65536

    /// What the frames' planes are.
    public var image: CaptureImageInfo
    /// The frames in time order.
    public var frames: [CaptureFrameEntry]

    /// Creates a manifest.
    public init(image: CaptureImageInfo, frames: [CaptureFrameEntry]) {
        self.image = image
        self.frames = frames
    }
}

// MARK: - Reading

extension CaptureManifest {
    /// Parses and fully validates manifest JSON. `file` names the manifest in errors; each error
    /// gives the JSON path of the offending field and what was expected.
    public init(json data: Data, file: String = "capture.json") throws {
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw PointPaintError(file: file, "invalid JSON: \(Self.describeJSONError(error, data: data))")
        }
        let p = JSONFieldReader(file: file)
        let object = try p.object(root, at: "")
        let format = try p.string(object["format"], at: "format")
        guard format == Self.formatName else {
            throw PointPaintError(file: file, place: "format", "expected \"\(Self.formatName)\", found \"\(format)\"")
        }
        let version = try p.int(object["version"], at: "version")
        guard version == Self.version else {
            throw PointPaintError(file: file, place: "version", "unsupported version \(version); this reader knows version \(Self.version)")
        }
        let imageObject = try p.object(object["image"], at: "image")
        let width = try p.int(imageObject["width"], at: "image.width")
        let height = try p.int(imageObject["height"], at: "image.height")
        for (name, value) in [("width", width), ("height", height)] {
            guard value > 0, value % 2 == 0, value <= Self.maximumDimension else {
                throw PointPaintError(file: file, place: "image.\(name)", "expected an even number from 2 to \(Self.maximumDimension), found \(value)")
            }
        }
        let info = CaptureImageInfo(
            width: width, height: height,
            range: try p.enumeration(imageObject["range"], at: "image.range"),
            matrix: try p.enumeration(imageObject["matrix"], at: "image.matrix"),
            primaries: try p.enumeration(imageObject["primaries"], at: "image.primaries"),
            chromaSiting: imageObject["chromaSiting"] == nil ? .center : try p.enumeration(imageObject["chromaSiting"], at: "image.chromaSiting"))

        let frameList = try p.array(object["frames"], at: "frames")
        var frames: [CaptureFrameEntry] = []
        frames.reserveCapacity(frameList.count)
        var previousTime = -Double.infinity
        for (index, element) in frameList.enumerated() {
            let at = "frames[\(index)]"
            let frame = try p.object(element, at: at)
            let timestamp = try p.number(frame["timestamp"], at: "\(at).timestamp")
            guard timestamp > previousTime else {
                throw PointPaintError(file: file, place: "\(at).timestamp", "expected a time later than the previous frame's \(previousTime), found \(timestamp)")
            }
            previousTime = timestamp
            let image: FrameImageSource
            if let planes = frame["image"] as? [String: Any] {
                image = .planes(y: try p.path(planes["y"], at: "\(at).image.y"),
                                cb: try p.path(planes["cb"], at: "\(at).image.cb"),
                                cr: try p.path(planes["cr"], at: "\(at).image.cr"))
                for key in ["lumaStride", "chromaStride"] where frame[key] != nil {
                    throw PointPaintError(file: file, place: "\(at).\(key)", "strides apply to raw NV12 files only, not to PNG planes")
                }
            } else {
                let path = try p.path(frame["image"], at: "\(at).image", expected: "a relative path string or an object {\"y\", \"cb\", \"cr\"}")
                let lumaStride = frame["lumaStride"] == nil ? width : try p.int(frame["lumaStride"], at: "\(at).lumaStride")
                let chromaStride = frame["chromaStride"] == nil ? width : try p.int(frame["chromaStride"], at: "\(at).chromaStride")
                for (key, stride) in [("lumaStride", lumaStride), ("chromaStride", chromaStride)] {
                    guard stride >= width, stride <= Self.maximumStride else {
                        throw PointPaintError(file: file, place: "\(at).\(key)", "expected a stride from the width \(width) to \(Self.maximumStride) bytes, found \(stride)")
                    }
                }
                image = .nv12(path: path, lumaStride: lumaStride, chromaStride: chromaStride)
            }
            let points = try p.path(frame["points"], at: "\(at).points")
            let cameraObject = try p.object(frame["camera"], at: "\(at).camera")
            let k = try p.numbers(cameraObject["intrinsics"], count: 4, at: "\(at).camera.intrinsics")
            guard k[0] > 0, k[1] > 0 else {
                throw PointPaintError(file: file, place: "\(at).camera.intrinsics", "expected positive focal lengths fx, fy, found \(k[0]), \(k[1])")
            }
            let t = try p.numbers(cameraObject["transform"], count: 16, at: "\(at).camera.transform")
            guard let camera = Camera(intrinsics: CameraIntrinsics(fx: k[0], fy: k[1], cx: k[2], cy: k[3]), transform: Matrix4x4(columnMajor: t)) else {
                throw PointPaintError(file: file, place: "\(at).camera.transform", "expected an invertible camera-to-world matrix, found a singular one")
            }
            frames.append(CaptureFrameEntry(timestamp: timestamp, image: image, points: points, camera: camera))
        }
        self.init(image: info, frames: frames)
    }

    private static func describeJSONError(_ error: Error, data: Data) -> String {
        let text = "\(error)"
        // Foundation reports a character index; turn it into a line number people can use.
        if let range = text.range(of: #"(?:around|at) (?:line \d+, column \d+|character \d+)"#, options: .regularExpression) {
            return "malformed \(text[range])"
        }
        if let nsError = error as NSError?, let index = nsError.userInfo["NSJSONSerializationErrorIndex"] as? Int {
            let line = data.prefix(index).reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
            return "malformed near line \(line)"
        }
        return "not valid JSON"
    }
}

/// Reads typed fields from `JSONSerialization` output, with errors that name the JSON path.
private struct JSONFieldReader {
    let file: String

    func fail(_ at: String, _ expected: String, _ value: Any?) -> PointPaintError {
        let found: String
        switch value {
        case nil: found = "nothing"
        case is NSNull: found = "null"
        case let s as String: found = "\"\(s.prefix(40))\""
        case is [Any]: found = "an array"
        case is [String: Any]: found = "an object"
        case let n as NSNumber: found = "\(n)"
        default: found = "\(value!)"
        }
        return PointPaintError(file: file, place: at.isEmpty ? "top level" : at, "expected \(expected), found \(found)")
    }

    func object(_ value: Any?, at: String) throws -> [String: Any] {
        guard let o = value as? [String: Any] else { throw fail(at, "an object", value) }
        return o
    }

    func array(_ value: Any?, at: String) throws -> [Any] {
        guard let a = value as? [Any] else { throw fail(at, "an array", value) }
        return a
    }

    func string(_ value: Any?, at: String) throws -> String {
        guard let s = value as? String else { throw fail(at, "a string", value) }
        return s
    }

    func isBool(_ value: Any?) -> Bool {
        guard let n = value as? NSNumber else { return false }
        // JSON true/false arrive as NSNumber of C type 'c'; JSON numbers never do.
        return n.objCType.pointee == CChar(UInt8(ascii: "c"))
    }

    func number(_ value: Any?, at: String) throws -> Double {
        guard !isBool(value), let n = value as? NSNumber, !(value is String) else { throw fail(at, "a number", value) }
        let d = n.doubleValue
        guard d.isFinite else { throw fail(at, "a finite number", value) }
        return d
    }

    func int(_ value: Any?, at: String) throws -> Int {
        let d = try number(value, at: at)
        guard d == d.rounded(), abs(d) < 1e15 else { throw fail(at, "an integer", value) }
        return Int(d)
    }

    func numbers(_ value: Any?, count: Int, at: String) throws -> [Double] {
        guard let a = value as? [Any], a.count == count else { throw fail(at, "an array of \(count) numbers", value) }
        return try a.enumerated().map { i, v in
            guard !isBool(v), let n = v as? NSNumber, n.doubleValue.isFinite else {
                throw fail("\(at)[\(i)]", "a finite number", v)
            }
            return n.doubleValue
        }
    }

    func enumeration<E: RawRepresentable & CaseIterable>(_ value: Any?, at: String) throws -> E where E.RawValue == String {
        let names = E.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " | ")
        guard let s = value as? String, let e = E(rawValue: s) else { throw fail(at, names, value) }
        return e
    }

    /// A path relative to the capture directory that stays inside it.
    func path(_ value: Any?, at: String, expected: String = "a relative path string") throws -> String {
        guard let s = value as? String else { throw fail(at, expected, value) }
        guard !s.isEmpty, !s.contains("\0") else { throw fail(at, "a non-empty path", value) }
        guard !s.hasPrefix("/"), !s.hasPrefix("\\") else {
            throw PointPaintError(file: file, place: at, "expected a path inside the capture directory, found the absolute path \"\(s)\"")
        }
        let parts = s.split(whereSeparator: { $0 == "/" || $0 == "\\" })
        guard !parts.contains("..") else {
            throw PointPaintError(file: file, place: at, "expected a path inside the capture directory, found \"\(s)\" which climbs out with ..")
        }
        return s
    }
}

// MARK: - Writing

extension CaptureManifest {
    /// The manifest as JSON text. Numbers print in their shortest round-trip form, so reading
    /// the text back gives exactly these values.
    public func jsonText() -> String {
        func list(_ values: [Double]) -> String { "[" + values.map { "\($0)" }.joined(separator: ", ") + "]" }
        func quote(_ s: String) -> String {
            var out = "\""
            for scalar in s.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\t": out += "\\t"
                case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
                default: out.unicodeScalars.append(scalar)
                }
            }
            return out + "\""
        }
        var out = "{\n"
        out += "  \"format\": \(quote(Self.formatName)),\n"
        out += "  \"version\": \(Self.version),\n"
        out += "  \"image\": {\n"
        out += "    \"width\": \(image.width), \"height\": \(image.height),\n"
        out += "    \"range\": \(quote(image.range.rawValue)), \"matrix\": \(quote(image.matrix.rawValue)),\n"
        out += "    \"primaries\": \(quote(image.primaries.rawValue)), \"chromaSiting\": \(quote(image.chromaSiting.rawValue))\n"
        out += "  },\n"
        out += "  \"frames\": ["
        for (i, frame) in frames.enumerated() {
            out += i == 0 ? "\n" : ",\n"
            out += "    {\n"
            out += "      \"timestamp\": \(frame.timestamp),\n"
            switch frame.image {
            case .nv12(let path, let lumaStride, let chromaStride):
                out += "      \"image\": \(quote(path)),\n"
                out += "      \"lumaStride\": \(lumaStride), \"chromaStride\": \(chromaStride),\n"
            case .planes(let y, let cb, let cr):
                out += "      \"image\": {\"y\": \(quote(y)), \"cb\": \(quote(cb)), \"cr\": \(quote(cr))},\n"
            }
            out += "      \"points\": \(quote(frame.points)),\n"
            let k = frame.camera.intrinsics
            out += "      \"camera\": {\n"
            out += "        \"intrinsics\": \(list([k.fx, k.fy, k.cx, k.cy])),\n"
            out += "        \"transform\": \(list(frame.camera.transform.columnMajor))\n"
            out += "      }\n"
            out += "    }"
        }
        out += frames.isEmpty ? "]\n" : "\n  ]\n"
        out += "}\n"
        return out
    }
}
