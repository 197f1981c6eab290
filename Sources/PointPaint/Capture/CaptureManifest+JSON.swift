import Foundation

/// `capture.json` as text: the reader, which validates every field and names the JSON path of
/// what is wrong, and the writer.
extension CaptureManifest {
    /// Parses and fully validates manifest JSON. `file` names the manifest in errors; each error
    /// gives the JSON path of the offending field and what was expected.
    public init(json data: Data, file: String = "capture.json") throws {
        let root: JSONValue
        do {
            root = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw Self.jsonError(data, file: file)
        }
        let p = JSONFieldReader(file: file)
        let object = try p.object(root, at: "")
        let format = try p.string(object["format"], at: "format")
        guard format == Self.formatName else {
            throw PointPaintError(.unsupported, file: file, place: .jsonPath("format"),
                                  "expected \"\(Self.formatName)\", found \(PointPaintError.quote(format))")
        }
        let version = try p.int(object["version"], at: "version")
        guard version == Self.version else {
            throw PointPaintError(.unsupported, file: file, place: .jsonPath("version"), "unsupported version \(version); this reader knows version \(Self.version)")
        }
        let imageObject = try p.object(object["image"], at: "image")
        let width = try p.int(imageObject["width"], at: "image.width")
        let height = try p.int(imageObject["height"], at: "image.height")
        for (name, value) in [("width", width), ("height", height)] {
            guard value > 0, value % 2 == 0, value <= Self.maximumDimension else {
                throw PointPaintError(.outOfRange, file: file, place: .jsonPath("image.\(name)"), "expected an even number from 2 to \(Self.maximumDimension), found \(value)")
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
                throw PointPaintError(.outOfRange, file: file, place: .jsonPath("\(at).timestamp"), "expected a time later than the previous frame's \(previousTime), found \(timestamp)")
            }
            previousTime = timestamp
            let image: FrameImageSource
            if case .object = frame["image"], let object = frame["image"] {
                if object["jpeg"] != nil {
                    for key in ["y", "cb", "cr"] where object[key] != nil {
                        throw PointPaintError(.malformed, file: file, place: .jsonPath("\(at).image.\(key)"),
                                              "expected either a JPEG file or three PNG planes, found both")
                    }
                    image = .jpeg(path: try p.path(object["jpeg"], at: "\(at).image.jpeg"))
                    guard CaptureManifest(image: info, frames: []).acceptsJPEGFrames else {
                        throw PointPaintError(.malformed, file: file, place: .jsonPath("\(at).image"),
                                              "expected an image block of full range, bt601 matrix and center siting for a JPEG frame (JFIF's Y′CbCr), found \(info.range.rawValue) range, \(info.matrix.rawValue) matrix, \(info.chromaSiting.rawValue) siting")
                    }
                } else {
                    image = .planes(y: try p.path(object["y"], at: "\(at).image.y"),
                                    cb: try p.path(object["cb"], at: "\(at).image.cb"),
                                    cr: try p.path(object["cr"], at: "\(at).image.cr"))
                }
                for key in ["lumaStride", "chromaStride"] where frame[key] != nil {
                    throw PointPaintError(.malformed, file: file, place: .jsonPath("\(at).\(key)"), "strides apply to raw NV12 files only, not to PNG planes or JPEG files")
                }
            } else {
                let path = try p.path(frame["image"], at: "\(at).image", expected: "a relative path string, an object {\"y\", \"cb\", \"cr\"} or {\"jpeg\"}")
                let lumaStride = frame["lumaStride"] == nil ? width : try p.int(frame["lumaStride"], at: "\(at).lumaStride")
                let chromaStride = frame["chromaStride"] == nil ? width : try p.int(frame["chromaStride"], at: "\(at).chromaStride")
                for (key, stride) in [("lumaStride", lumaStride), ("chromaStride", chromaStride)] {
                    guard stride >= width, stride <= Self.maximumStride else {
                        throw PointPaintError(.outOfRange, file: file, place: .jsonPath("\(at).\(key)"), "expected a stride from the width \(width) to \(Self.maximumStride) bytes, found \(stride)")
                    }
                }
                image = .nv12(path: path, lumaStride: lumaStride, chromaStride: chromaStride)
            }
            let points = frame["points"] == nil ? nil : try p.path(frame["points"], at: "\(at).points")
            let depth = frame["depth"] == nil ? nil : try Self.depth(frame["depth"], at: "\(at).depth", image: info, reader: p)
            let cameraObject = try p.object(frame["camera"], at: "\(at).camera")
            let k = try p.numbers(cameraObject["intrinsics"], count: 4, at: "\(at).camera.intrinsics")
            guard k[0] > 0, k[1] > 0 else {
                throw PointPaintError(.outOfRange, file: file, place: .jsonPath("\(at).camera.intrinsics"), "expected positive focal lengths fx, fy, found \(k[0]), \(k[1])")
            }
            let t = try p.numbers(cameraObject["transform"], count: 16, at: "\(at).camera.transform")
            guard let camera = Camera(intrinsics: CameraIntrinsics(fx: k[0], fy: k[1], cx: k[2], cy: k[3]), transform: Matrix4x4(columnMajor: t)) else {
                throw PointPaintError(.malformed, file: file, place: .jsonPath("\(at).camera.transform"), "expected an invertible camera-to-world matrix, found a singular one")
            }
            frames.append(CaptureFrameEntry(timestamp: timestamp, image: image, points: points, depth: depth, camera: camera))
        }
        let cloud = object["cloud"] == nil ? nil : try p.path(object["cloud"], at: "cloud")
        self.init(image: info, frames: frames, cloud: cloud)
    }

    /// A frame's `depth` object: its file, encoding and size (registered to the image: the same
    /// aspect ratio within 1 %), and its optional confidence map.
    private static func depth(_ value: JSONValue?, at: String, image: CaptureImageInfo, reader p: JSONFieldReader) throws -> FrameDepthSource {
        let object = try p.object(value, at: at)
        let path = try p.path(object["path"], at: "\(at).path")
        let encoding: DepthEncoding = try p.enumeration(object["encoding"], at: "\(at).encoding")
        let width = try p.int(object["width"], at: "\(at).width")
        let height = try p.int(object["height"], at: "\(at).height")
        for (name, size) in [("width", width), ("height", height)] {
            guard size > 0, size <= maximumDimension else {
                throw PointPaintError(.outOfRange, file: p.file, place: .jsonPath("\(at).\(name)"), "expected a number from 1 to \(maximumDimension), found \(size)")
            }
        }
        let depthAspect = Double(width) / Double(height), imageAspect = Double(image.width) / Double(image.height)
        guard abs(depthAspect / imageAspect - 1) <= 0.01 else {
            throw PointPaintError(.malformed, file: p.file, place: .jsonPath(at),
                                  "expected a depth map with the aspect ratio of the \(image.width)x\(image.height) image (registered to it), found \(width)x\(height)")
        }
        let confidence = object["confidence"] == nil ? nil : try p.path(object["confidence"], at: "\(at).confidence")
        return FrameDepthSource(path: path, encoding: encoding, width: width, height: height, confidence: confidence)
    }

    /// Where and how the JSON went wrong. `JSONDecoder` does not say, so the text is looked at
    /// again: first for a number no `Double` can hold (which `JSONSerialization` reports without
    /// a place), then by `JSONSerialization`, whose error names a character offset, turned here
    /// into a line and column.
    private static func jsonError(_ data: Data, file: String) -> PointPaintError {
        let bytes = [UInt8](data)
        if let number = firstUnrepresentableNumber(bytes) {
            let (line, column) = lineAndColumn(bytes, number.lowerBound)
            return PointPaintError(.outOfRange, file: file, place: .line(line),
                                   "invalid JSON at column \(column): expected a number a Double can hold (at most about 1.8e308 in size), found \(PointPaintError.quote(bytes: bytes[number]))")
        }
        do {
            _ = try JSONSerialization.jsonObject(with: data)
        } catch {
            let text = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
            if let range = text.range(of: #"character \d+"#, options: .regularExpression),
               let offset = Int(text[range].dropFirst("character ".count)) {
                let (line, column) = lineAndColumn(bytes, min(offset, bytes.count))
                // Keep Foundation's reason ("Invalid value", "Too many nested arrays or
                // dictionaries", …) without its own "around character N." tail.
                var reason = text
                if let tail = reason.range(of: #"\s*(around|at) character \d+\.?"#, options: .regularExpression) {
                    reason.removeSubrange(tail)
                }
                reason = reason.trimmingCharacters(in: CharacterSet.whitespaces.union(CharacterSet(charactersIn: "."))).lowercasedFirst
                return PointPaintError(.malformed, file: file, place: .line(line),
                                       "invalid JSON at column \(column)" + (reason.isEmpty ? "" : ": \(reason)"))
            }
            return PointPaintError(.malformed, file: file, "invalid JSON: \(PointPaintError.quote(text, limit: 120))")
        }
        return PointPaintError(.malformed, file: file, "invalid JSON: not a document this reader understands")
    }

    /// The line and column (both from 1, the column in bytes) of byte `offset`.
    private static func lineAndColumn(_ bytes: [UInt8], _ offset: Int) -> (line: Int, column: Int) {
        let prefix = bytes[..<offset]
        let line = prefix.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
        return (line, offset - (prefix.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0) + 1)
    }

    /// The first number literal outside strings too large for a `Double` (such as `1e999`).
    private static func firstUnrepresentableNumber(_ bytes: [UInt8]) -> Range<Int>? {
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                i += 1
                while i < bytes.count, bytes[i] != UInt8(ascii: "\"") { i += bytes[i] == UInt8(ascii: "\\") ? 2 : 1 }
                i += 1
            } else if b == UInt8(ascii: "-") || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) {
                let start = i
                while i < bytes.count, "0123456789+-.eE".utf8.contains(bytes[i]) { i += 1 }
                if let d = Double(String(decoding: bytes[start ..< i], as: UTF8.self)), d.isInfinite { return start ..< i }
            } else {
                i += 1
            }
        }
        return nil
    }
}

/// Reads typed fields from a `JSONValue`, with errors that name the JSON path (`JSONNode`'s, so
/// a manifest and an app's JSON say what they found in the same words).
private struct JSONFieldReader {
    let file: String

    /// The error for a field that is not what was expected: `.missing` when absent, `kind`
    /// otherwise (`.malformed` unless the caller knows better).
    func fail(_ at: String, _ expected: String, _ value: JSONValue?, kind: PointPaintError.Kind = .malformed) -> PointPaintError {
        JSONNode(value: value, path: at, file: file).failure(expected, kind: kind)
    }

    func object(_ value: JSONValue?, at: String) throws -> JSONValue {
        guard case .object = value else { throw fail(at, "an object", value) }
        return value!
    }

    func array(_ value: JSONValue?, at: String) throws -> [JSONValue] {
        guard case .array(let a) = value else { throw fail(at, "an array", value) }
        return a
    }

    func string(_ value: JSONValue?, at: String) throws -> String {
        guard case .string(let s) = value else { throw fail(at, "a string", value) }
        return s
    }

    func number(_ value: JSONValue?, at: String) throws -> Double {
        guard case .number(let d) = value else { throw fail(at, "a number", value) }
        guard d.isFinite else { throw fail(at, "a finite number", value, kind: .outOfRange) }
        return d
    }

    func int(_ value: JSONValue?, at: String) throws -> Int {
        let d = try number(value, at: at)
        guard d == d.rounded() else { throw fail(at, "an integer", value) }
        guard abs(d) < 1e15 else { throw fail(at, "an integer below 10¹⁵ in size", value, kind: .outOfRange) }
        return Int(d)
    }

    func numbers(_ value: JSONValue?, count: Int, at: String) throws -> [Double] {
        guard case .array(let a) = value, a.count == count else { throw fail(at, "an array of \(count) numbers", value) }
        return try a.enumerated().map { i, v in
            guard case .number(let d) = v else { throw fail("\(at)[\(i)]", "a finite number", v) }
            guard d.isFinite else { throw fail("\(at)[\(i)]", "a finite number", v, kind: .outOfRange) }
            return d
        }
    }

    func enumeration<E: RawRepresentable & CaseIterable>(_ value: JSONValue?, at: String) throws -> E where E.RawValue == String {
        let names = E.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " | ")
        guard case .string(let s) = value else { throw fail(at, names, value) }
        guard let e = E(rawValue: s) else { throw fail(at, names, value, kind: .unsupported) }
        return e
    }

    /// A path relative to the capture directory that stays inside it.
    func path(_ value: JSONValue?, at: String, expected: String = "a relative path string") throws -> String {
        guard case .string(let s) = value else { throw fail(at, expected, value) }
        guard !s.isEmpty, !s.contains("\0") else { throw fail(at, "a non-empty path", value) }
        guard s.utf8.count <= CaptureManifest.longestPath else {
            throw fail(at, "a path of at most \(CaptureManifest.longestPath) bytes", value, kind: .tooLarge)
        }
        guard !s.hasPrefix("/"), !s.hasPrefix("\\") else {
            throw PointPaintError(.malformed, file: file, place: .jsonPath(at),
                                  "expected a path inside the capture directory, found the absolute path \(PointPaintError.quote(s))")
        }
        let parts = s.split(whereSeparator: { $0 == "/" || $0 == "\\" })
        guard !parts.contains("..") else {
            throw PointPaintError(.malformed, file: file, place: .jsonPath(at),
                                  "expected a path inside the capture directory, found \(PointPaintError.quote(s)), which climbs out with ..")
        }
        return s
    }
}

extension CaptureManifest {
    /// The manifest as JSON text. Numbers print in their shortest round-trip form, so reading
    /// the text back gives exactly these values.
    public func jsonText() -> String {
        func list(_ values: [Double]) -> String { "[" + values.map { "\($0)" }.joined(separator: ", ") + "]" }
        let quote = JSONText.quote
        var out = "{\n"
        out += "  \"format\": \(quote(Self.formatName)),\n"
        out += "  \"version\": \(Self.version),\n"
        out += "  \"image\": {\n"
        out += "    \"width\": \(image.width), \"height\": \(image.height),\n"
        out += "    \"range\": \(quote(image.range.rawValue)), \"matrix\": \(quote(image.matrix.rawValue)),\n"
        out += "    \"primaries\": \(quote(image.primaries.rawValue)), \"chromaSiting\": \(quote(image.chromaSiting.rawValue))\n"
        out += "  },\n"
        if let cloud { out += "  \"cloud\": \(quote(cloud)),\n" }
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
            case .jpeg(let path):
                out += "      \"image\": {\"jpeg\": \(quote(path))},\n"
            }
            if let points = frame.points { out += "      \"points\": \(quote(points)),\n" }
            if let depth = frame.depth {
                out += "      \"depth\": {\"path\": \(quote(depth.path)), \"encoding\": \(quote(depth.encoding.rawValue)), "
                out += "\"width\": \(depth.width), \"height\": \(depth.height)"
                if let confidence = depth.confidence { out += ", \"confidence\": \(quote(confidence))" }
                out += "},\n"
            }
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
