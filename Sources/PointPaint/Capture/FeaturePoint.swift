import Foundation

/// A 3D feature point ARKit detected: a world position in metres and, when known, its
/// identifier (`ARPointCloud.identifiers`).
public struct FeaturePoint: Sendable, Equatable {
    /// World position, metres.
    public var position: SIMD3<Float>
    /// ARKit's identifier, if recorded.
    public var id: UInt64?

    /// Creates a point.
    public init(position: SIMD3<Float>, id: UInt64? = nil) {
        self.position = position
        self.id = id
    }
}

/// The `.xyz` feature-point format: ASCII, one point a line, `x y z [id]`; `#` starts a
/// comment line; blank lines are ignored.
public enum XYZFormat {
    /// Parses `.xyz` text. `file` names the file in errors, which give the line number.
    /// - Complexity: O(n) in the file size.
    public static func parse(_ bytes: [UInt8], file: String) throws -> [FeaturePoint] {
        var points: [FeaturePoint] = []
        points.reserveCapacity(bytes.count / 24)
        var text = bytes
        text.append(0)
        try text.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            let end = buffer.count - 1
            // A UTF-8 byte-order mark before the first line is not part of it.
            var i = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            var line = 0
            while i < end {
                line += 1
                var lineEnd = i
                while lineEnd < end, base[lineEnd] != 0x0A { lineEnd += 1 }
                // Work on this line alone: terminate it so strtod cannot run into the next one.
                let saved = base[lineEnd]
                base[lineEnd] = 0
                defer { base[lineEnd] = saved }
                var p = i
                while p < lineEnd, base[p] == 0x20 || base[p] == 0x09 || base[p] == 0x0D { p += 1 }
                if p == lineEnd || base[p] == UInt8(ascii: "#") {
                    i = lineEnd + 1
                    continue
                }
                func fail(_ kind: PointPaintError.Kind, _ message: String) -> PointPaintError {
                    var last = lineEnd
                    while last > p, base[last - 1] == 0x20 || base[last - 1] == 0x09 || base[last - 1] == 0x0D { last -= 1 }
                    let content = UnsafeBufferPointer(start: base + p, count: last - p)
                    return PointPaintError(kind, file: file, place: .line(line), "\(message), found \(PointPaintError.quote(bytes: content))")
                }
                var xyz = SIMD3<Float>()
                var cursor = UnsafeMutablePointer<CChar>(OpaquePointer(base + p))
                for k in 0 ..< 3 {
                    var next: UnsafeMutablePointer<CChar>?
                    let value = strtod(cursor, &next)
                    guard let next, next != cursor else { throw fail(.malformed, "expected \"x y z [id]\"") }
                    guard value.isFinite, abs(value) <= Double(Float.greatestFiniteMagnitude) else {
                        throw fail(.outOfRange, "expected finite coordinates")
                    }
                    xyz[k] = Float(value)
                    cursor = next
                    // Fields are separated by whitespace: "1-2-3" is not three numbers.
                    let after = cursor.pointee
                    guard after == 0x20 || after == 0x09 || after == 0x0D || after == 0 else {
                        throw fail(.malformed, "expected whitespace between the fields of \"x y z [id]\"")
                    }
                }
                var id: UInt64?
                while cursor.pointee == 0x20 || cursor.pointee == 0x09 || cursor.pointee == 0x0D { cursor += 1 }
                if cursor.pointee != 0 {
                    guard cursor.pointee >= 0x30, cursor.pointee <= 0x39 else {
                        throw fail(cursor.pointee == 0x2D ? .outOfRange : .malformed, "expected an unsigned integer id after x y z")
                    }
                    errno = 0
                    var next: UnsafeMutablePointer<CChar>?
                    let value = strtoull(cursor, &next, 10)
                    guard let next, next != cursor, errno == 0 else { throw fail(.outOfRange, "expected an unsigned 64-bit id") }
                    id = UInt64(value)
                    cursor = next
                    while cursor.pointee == 0x20 || cursor.pointee == 0x09 || cursor.pointee == 0x0D { cursor += 1 }
                    guard cursor.pointee == 0 else { throw fail(.malformed, "expected at most 4 fields") }
                }
                points.append(FeaturePoint(position: xyz, id: id))
                i = lineEnd + 1
            }
        }
        return points
    }

    /// Formats points as `.xyz` text; coordinates print in the shortest form that reads back
    /// to the same `Float`, so a write–read round trip is exact.
    public static func format(_ points: [FeaturePoint], comment: String? = nil) -> String {
        var out = ""
        out.reserveCapacity(points.count * 32)
        if let comment { out += "# \(comment)\n" }
        for p in points {
            out += "\(p.position.x) \(p.position.y) \(p.position.z)"
            if let id = p.id { out += " \(id)" }
            out += "\n"
        }
        return out
    }
}
