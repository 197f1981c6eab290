/// A value at a JSON path of a `SourceJSON` document (or the absence of one), read as the type
/// a caller expects: `json.root["frames"][3]["transform_matrix"].matrix(rows: 4, columns: 4)`.
struct JSONNode {
    /// The value, or nil when the key or index is absent.
    let value: JSONValue?
    /// Where it is: `frames[3].transform_matrix`; empty for the top level.
    let path: String
    /// The file, as named in errors.
    let file: String

    /// The member `key` of this object (absent when this is not an object or has no such key).
    subscript(key: String) -> JSONNode {
        JSONNode(value: value?[key], path: path.isEmpty ? key : "\(path).\(key)", file: file)
    }

    /// Whether a value (even `null`) is present.
    var exists: Bool { value != nil }

    /// An error at this node: `.missing` when absent, `.malformed` (or `kind`) otherwise, saying
    /// what was expected and what was found.
    func failure(_ expected: String, kind: PointPaintError.Kind = .malformed) -> PointPaintError {
        let found: String = switch value {
        case nil: "nothing"
        case .null: "null"
        case .bool(let b): "\(b)"
        case .number(let d): "\(d)"
        case .string(let s): PointPaintError.quote(s)
        case .array(let a): "an array of \(a.count)"
        case .object: "an object"
        }
        return PointPaintError(value == nil ? .missing : kind, file: file, place: .jsonPath(path), "expected \(expected), found \(found)")
    }

    /// The members of an object.
    func object() throws -> [String: JSONValue] {
        guard case .object(let members) = value else { throw failure("an object") }
        return members
    }

    /// The elements of an array, each with its path.
    func array() throws -> [JSONNode] {
        guard case .array(let elements) = value else { throw failure("an array") }
        return elements.enumerated().map { JSONNode(value: $1, path: "\(path)[\($0)]", file: file) }
    }

    /// A string.
    func string() throws -> String {
        guard case .string(let s) = value else { throw failure("a string") }
        return s
    }

    /// A finite number.
    func number() throws -> Double {
        guard case .number(let d) = value, d.isFinite else { throw failure("a finite number") }
        return d
    }

    /// A finite number greater than zero (a focal length, an image size, a scale).
    func positiveNumber() throws -> Double {
        let d = try number()
        guard d > 0 else { throw failure("a number greater than 0", kind: .outOfRange) }
        return d
    }

    /// A whole number from 1 to `maximum` (an image size).
    func positiveInteger(atMost maximum: Int) throws -> Int {
        let d = try number()
        guard d == d.rounded(), d >= 1, d <= Double(maximum) else { throw failure("a whole number from 1 to \(maximum)", kind: .outOfRange) }
        return Int(d)
    }

    /// An array of exactly `count` finite numbers.
    func numbers(count: Int) throws -> [Double] {
        guard case .array(let elements) = value, elements.count == count else { throw failure("an array of \(count) numbers") }
        return try array().map { try $0.number() }
    }

    /// A `rows` × `columns` matrix written as an array of rows, each an array of finite numbers:
    /// the numbers row by row.
    func matrix(rows: Int, columns: Int) throws -> [Double] {
        guard case .array(let list) = value, list.count == rows else { throw failure("\(rows) rows of \(columns) numbers") }
        return try array().flatMap { try $0.numbers(count: columns) }
    }
}
