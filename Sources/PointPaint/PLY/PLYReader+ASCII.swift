import Foundation

/// Reads ascii data: one element entry a line, its values separated by spaces or tabs. A line
/// with too few or too many values is an error naming the line, the element entry and the counts,
/// so one damaged line cannot silently shift every value after it. Lines end with LF, CRLF or CR.
struct PLYASCIIParser {
    var cursor: ByteCursor
    let file: String

    mutating func read(_ element: inout PLYElement) throws {
        let props = element.properties.count
        guard props > 0, element.count > 0 else { return }
        // Every entry needs at least one character and one separator a value.
        let (needed, overflow) = element.count.multipliedReportingOverflow(by: 2 * props)
        guard !overflow, needed - 1 <= cursor.remaining else {
            throw PointPaintError(.tooLarge, file: file, place: .line(cursor.line),
                                  "element \(PointPaintError.quote(element.name)) declares \(element.count) entries of \(props) values, more than the \(cursor.remaining) bytes that follow could hold")
        }
        var builders = element.properties.map { PLYColumnGatherer(property: $0, count: element.count) }
        for entry in 0 ..< element.count {
            guard !cursor.isAtEnd else {
                let expected = PLYASCIIParser.expectedValues(element, found: 0, stillNeeded: 0, property: -1, openList: false)
                throw PointPaintError(.malformed, file: file, place: .line(cursor.line),
                                      "expected \(expected) for \(PointPaintError.name(element.name)) \(entry) of \(element.count), found the end of the file")
            }
            var found = 0
            for (k, p) in element.properties.enumerated() {
                switch p.type {
                case .scalar(let t):
                    guard let token = cursor.nextToken() else { throw tooFew(element, entry, found: found, stillNeeded: 1, property: k) }
                    builders[k].append(try value(token, t, element, entry, p))
                    found += 1
                case .list(let c, let item):
                    guard let countToken = cursor.nextToken() else {
                        throw tooFew(element, entry, found: found, stillNeeded: 1, property: k, openList: true)
                    }
                    let n = try value(countToken, c, element, entry, p)
                    guard n >= 0 else {
                        throw PointPaintError(.outOfRange, file: file, place: .line(cursor.line),
                                              "expected a non-negative list length for \(PointPaintError.quote(p.name)) of \(PointPaintError.name(element.name)) \(entry), found \(Int(n))")
                    }
                    let items = Int(n)
                    guard items <= (cursor.remaining + 1) / 2 else {
                        throw PointPaintError(.tooLarge, file: file, place: .line(cursor.line),
                                              "list \(PointPaintError.quote(p.name)) of \(PointPaintError.name(element.name)) \(entry) holds \(items) items, more than the rest of the file could hold")
                    }
                    found += 1
                    for j in 0 ..< items {
                        guard let token = cursor.nextToken() else {
                            throw tooFew(element, entry, found: found, stillNeeded: items - j, property: k)
                        }
                        builders[k].append(try value(token, item, element, entry, p))
                        found += 1
                    }
                    builders[k].offsets.append(builders[k].count)
                }
            }
            var extra = 0
            while cursor.nextToken() != nil { extra += 1 }
            if extra > 0 {
                throw PointPaintError(.malformed, file: file, place: .line(cursor.line),
                                      "expected \(found) value\(found == 1 ? "" : "s") for \(PointPaintError.name(element.name)) \(entry) of \(element.count), found \(found + extra)")
            }
            cursor.endLine()
        }
        for k in element.properties.indices { builders[k].finish(&element.properties[k]) }
    }

    /// After the last element: only blank lines may follow.
    mutating func finish(lastElement: String?) throws {
        while !cursor.isAtEnd {
            cursor.skipBlanks()
            let rest = cursor.restOfLine()
            if rest.contains(where: { !ByteCursor.isBlank($0) }) {
                let after = lastElement.map { "the last element (\(PointPaintError.quote($0)))" } ?? "the header"
                throw PointPaintError(.malformed, file: file, place: .line(cursor.line),
                                      "expected the end of the file after \(after), found \(PointPaintError.quote(bytes: rest))")
            }
            cursor.endLine()
        }
    }

    /// How many values an entry of `element` holds when the line has `found` so far and
    /// `stillNeeded` more are due for property `k` (its list length unknown when `openList`), plus
    /// one for each later property: `7 values`, or `at least 7 values` when a list length is not known yet.
    private static func expectedValues(_ element: PLYElement, found: Int, stillNeeded: Int, property k: Int,
                                       openList: Bool) -> String {
        let later = element.properties[(k + 1)...]
        let atLeast = openList || later.contains { if case .list = $0.type { true } else { false } }
        let count = found + stillNeeded + later.count
        return "\(atLeast ? "at least " : "")\(count) value\(count == 1 && !atLeast ? "" : "s")"
    }

    /// The error for an entry whose line ended after `found` values (see `expectedValues`).
    private func tooFew(_ element: PLYElement, _ entry: Int, found: Int, stillNeeded: Int, property k: Int,
                        openList: Bool = false) -> PointPaintError {
        let expected = PLYASCIIParser.expectedValues(element, found: found, stillNeeded: stillNeeded, property: k, openList: openList)
        return PointPaintError(.malformed, file: file, place: .line(cursor.line),
                               "expected \(expected) for \(PointPaintError.name(element.name)) \(entry) of \(element.count), found \(found)")
    }

    /// `token` parsed as `type`: integers in decimal (or as an integral number such as `255.0`)
    /// within the type's range, floats as decimal numbers.
    private func value(_ token: UnsafeRawBufferPointer, _ type: PLYScalarType, _ element: PLYElement, _ entry: Int,
                       _ p: PLYProperty) throws -> Double {
        if let range = type.integerRange {
            var v: Double?
            if let integer = ByteCursor.decimalInteger(token), !integer.overflow, integer.magnitude < 1 << 53 {
                v = integer.negative ? -Double(integer.magnitude) : Double(integer.magnitude)
            } else if let d = ByteCursor.double(token), d.isFinite, d.rounded() == d {
                v = d
            }
            guard let v else {
                throw PointPaintError(.malformed, file: file, place: .line(cursor.line),
                                      "expected an integer for \(describe(type, element, entry, p)), found \(PointPaintError.quote(bytes: token))")
            }
            guard range.contains(v) else {
                throw PointPaintError(.outOfRange, file: file, place: .line(cursor.line),
                                      "value \(v.magnitude < 1e18 ? "\(Int(v))" : "\(v)") for \(describe(type, element, entry, p)) lies outside \(Int(range.lowerBound))…\(Int(range.upperBound))")
            }
            return v
        }
        if type == .float32, let f = ByteCursor.float(token) { return Double(f) }
        if type == .float64, let d = ByteCursor.double(token) { return d }
        throw PointPaintError(.malformed, file: file, place: .line(cursor.line),
                              "expected a number for \(describe(type, element, entry, p)), found \(PointPaintError.quote(bytes: token))")
    }

    private func describe(_ type: PLYScalarType, _ element: PLYElement, _ entry: Int, _ p: PLYProperty) -> String {
        "\(PointPaintError.quote(p.name)) (\(type.headerName)) of \(PointPaintError.name(element.name)) \(entry) of \(element.count)"
    }
}
