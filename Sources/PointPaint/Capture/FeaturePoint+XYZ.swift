/// The `.xyz` feature-point format: ASCII, one point a line, `x y z [id]`; `#` starts a
/// comment line; blank lines are ignored.
public enum XYZFormat {
    /// Parses `.xyz` text. `file` names the file in errors, which give the line number. Lines
    /// end with LF, CRLF or CR; a UTF-8 byte-order mark before the first line is skipped.
    ///
    /// - Complexity: O(n) in the file size.
    public static func parse(_ bytes: [UInt8], file: String) throws -> [FeaturePoint] {
        try bytes.withUnsafeBytes { raw in
            var cursor = ByteCursor(raw)
            cursor.skipByteOrderMark()
            var points: [FeaturePoint] = []
            points.reserveCapacity(raw.count / 24)
            while !cursor.isAtEnd {
                let lineStart = cursor.position
                /// The error for this line, quoting `found` (the whole line when nil).
                func fail(_ kind: PointPaintError.Kind, _ expected: String, found: UnsafeRawBufferPointer? = nil) -> PointPaintError {
                    var line = ByteCursor(raw, position: lineStart)
                    line.skipBlanks()
                    var text = found ?? line.restOfLine()
                    while let last = text.last, ByteCursor.isBlank(last) { text = UnsafeRawBufferPointer(rebasing: text.dropLast()) }
                    return PointPaintError(kind, file: file, place: .line(cursor.line), "expected \(expected), found \(PointPaintError.quote(bytes: text))")
                }
                guard let first = cursor.nextToken(), first.first != UInt8(ascii: "#") else {
                    _ = cursor.restOfLine()  // a blank line or a comment
                    cursor.endLine()
                    continue
                }
                var xyz = SIMD3<Double>()
                var token = first
                for k in 0 ..< 3 {
                    if k > 0 {
                        guard let next = cursor.nextToken() else { throw fail(.malformed, "\"x y z [id]\"") }
                        token = next
                    }
                    guard let value = ByteCursor.double(token) else {
                        throw fail(.malformed, "a number for \(["x", "y", "z"][k])", found: token)
                    }
                    guard value.isFinite, abs(value) <= Double(Float.greatestFiniteMagnitude) else {
                        throw fail(.outOfRange, "a finite coordinate for \(["x", "y", "z"][k])", found: token)
                    }
                    xyz[k] = value
                }
                var id: UInt64?
                if let idToken = cursor.nextToken() {
                    guard let digit = idToken.first, digit >= 0x30, digit <= 0x39, let value = ByteCursor.decimalInteger(idToken) else {
                        throw fail(idToken.first == UInt8(ascii: "-") ? .outOfRange : .malformed, "an unsigned integer id after x y z", found: idToken)
                    }
                    guard !value.overflow else { throw fail(.outOfRange, "an unsigned 64-bit id", found: idToken) }
                    id = value.magnitude
                    guard cursor.nextToken() == nil else { throw fail(.malformed, "at most 4 fields") }
                }
                points.append(FeaturePoint(world: xyz, id: id))
                cursor.endLine()
            }
            return points
        }
    }

    /// Formats points as `.xyz` text; coordinates print in the shortest form that reads back
    /// to the same `Float` (or, for a point with an exact position, the same `Double`), so a
    /// write–read round trip is exact.
    public static func format(_ points: [FeaturePoint], comment: String? = nil) -> String {
        var out = ""
        out.reserveCapacity(points.count * 32)
        if let comment { out += "# \(comment)\n" }
        for p in points {
            if let e = p.exact { out += "\(e.x) \(e.y) \(e.z)" } else { out += "\(p.position.x) \(p.position.y) \(p.position.z)" }
            if let id = p.id { out += " \(id)" }
            out += "\n"
        }
        return out
    }
}
