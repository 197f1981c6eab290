extension SourceFiles {
    /// The largest NumPy depth file read (a 256 × 192 map is 98 kB).
    static let maximumNPYBytes = 64 << 20

    /// The size of the NumPy depth map at `path` (uint16 millimetres, rows × columns), from its header.
    static func depthNPYSize(_ path: String, frame: Int) throws -> (width: Int, height: Int) {
        let bytes = try read(path, limit: maximumNPYBytes, frame: frame, what: "depth map")
        let header = try NPYHeader(bytes, file: path, frame: frame)
        return (header.columns, header.rows)
    }

    /// The depth map of a NumPy `.npy` file of uint16 millimetres (Stray Scanner before 2022:
    /// `<u2`, shape (rows, columns), C order), with its confidence map when one is given.
    /// - Throws: `.missing` for an absent file; `.malformed` for a file that is not NPY, a header
    ///   that does not parse, a shape other than `size`, or data of another length than the shape
    ///   needs; `.unsupported` for another element type, Fortran order or another NPY version —
    ///   each at `frame`.
    static func depthNPY(_ path: String, confidence: Confidence?, size: (width: Int, height: Int), frame: Int) throws -> DepthMap {
        let bytes = try read(path, limit: maximumNPYBytes, frame: frame, what: "depth map")
        let header = try NPYHeader(bytes, file: path, frame: frame)
        guard header.columns == size.width, header.rows == size.height else {
            throw PointPaintError(.malformed, file: path, place: .frame(frame),
                                  "expected a \(size.width)x\(size.height) depth map (shape (\(size.height), \(size.width))), found \(header.columns)x\(header.rows)")
        }
        let count = size.width * size.height
        let millimetres = [UInt16](unsafeUninitializedCapacity: count) { buffer, initialized in
            bytes.withUnsafeBytes { raw in
                for i in 0 ..< count {
                    buffer[i] = UInt16(raw[header.dataOffset + 2 * i]) | UInt16(raw[header.dataOffset + 2 * i + 1]) << 8
                }
            }
            initialized = count
        }
        let levels = try confidence.map { try confidenceMap($0, size: size, frame: frame) }
        return DepthMap(width: size.width, height: size.height, millimetres: millimetres, confidence: levels)
    }
}

/// The header of a NumPy `.npy` file holding a two-dimensional array of little-endian uint16 in
/// C order, read strictly: the magic, version 1, 2 or 3, a dictionary of exactly `descr`,
/// `fortran_order` and `shape` as NumPy (and cnpy) write it, and data of exactly the length the
/// shape needs.
struct NPYHeader {
    /// Rows (the shape's first number).
    let rows: Int
    /// Columns (the shape's second number).
    let columns: Int
    /// Where the data starts.
    let dataOffset: Int

    /// The largest rows or columns accepted.
    static let maximumDimension = 1 << 16

    /// Parses the header of `bytes`, the whole file.
    init(_ bytes: [UInt8], file: String, frame: Int) throws {
        func failure(_ kind: PointPaintError.Kind, _ message: String) -> PointPaintError {
            PointPaintError(kind, file: file, place: .frame(frame), message)
        }
        func failure(_ message: String) -> PointPaintError { failure(.malformed, message) }
        let magic: [UInt8] = [0x93, 0x4E, 0x55, 0x4D, 0x50, 0x59]  // \x93NUMPY
        guard bytes.count >= 10, Array(bytes[0 ..< 6]) == magic else {
            throw failure("expected a NumPy .npy file (\\x93NUMPY), found other bytes")
        }
        let major = bytes[6]
        let length: Int, start: Int
        switch major {
        case 1:
            length = Int(bytes[8]) | Int(bytes[9]) << 8
            start = 10
        case 2, 3:
            guard bytes.count >= 12 else { throw failure("expected a NumPy header length, found the file's end") }
            length = (8 ..< 12).reduce(0) { $0 | Int(bytes[$1]) << (8 * ($1 - 8)) }
            start = 12
        default:
            throw failure(.unsupported, "expected NumPy format version 1, 2 or 3, found \(major).\(bytes[7])")
        }
        guard length <= bytes.count - start else {
            throw failure("expected a header of \(length) bytes, found a file of \(bytes.count) bytes")
        }
        guard let text = String(validating: bytes[start ..< start + length], as: UTF8.self), text.hasSuffix("\n") else {
            throw failure("expected a header of text ending with a line break")
        }
        let fields = try Self.dictionary(text.dropLast(), failure: failure)
        guard Set(fields.keys) == ["descr", "fortran_order", "shape"] else {
            throw failure("expected the header keys descr, fortran_order and shape, found \(fields.keys.sorted().map { PointPaintError.quote($0) }.joined(separator: ", "))")
        }
        guard case .text(let descr) = fields["descr"]! else { throw failure("expected descr to be text such as '<u2'") }
        guard descr == "<u2" else {
            throw failure(.unsupported, "expected little-endian uint16 depths (descr '<u2'), found \(PointPaintError.quote(descr))")
        }
        guard case .flag(let fortran) = fields["fortran_order"]! else { throw failure("expected fortran_order to be True or False") }
        guard !fortran else { throw failure(.unsupported, "expected C order (fortran_order False), found Fortran order") }
        guard case .shape(let shape) = fields["shape"]!, shape.count == 2 else {
            throw failure("expected a two-dimensional shape (rows, columns)")
        }
        guard shape.allSatisfy({ $0 > 0 && $0 <= Self.maximumDimension }) else {
            throw failure(.outOfRange, "expected a shape of 1 to \(Self.maximumDimension) rows and columns, found (\(shape[0]), \(shape[1]))")
        }
        rows = shape[0]
        columns = shape[1]
        dataOffset = start + length
        let needed = 2 * rows * columns, present = bytes.count - dataOffset
        guard present == needed else {
            throw failure("expected \(needed) bytes of data for shape (\(rows), \(columns)), found \(present)\(present < needed ? " (a truncated file?)" : "")")
        }
    }

    /// A value of the header's dictionary.
    private enum Value {
        case text(String)
        case flag(Bool)
        case shape([Int])
    }

    /// Parses `{'key': value, …}` with values in single quotes, `True`/`False`, or tuples of
    /// whole numbers; a comma may follow the last entry and spaces may pad anything.
    private static func dictionary(_ text: Substring, failure: (PointPaintError.Kind, String) -> PointPaintError) throws -> [String: Value] {
        var rest = text
        func fail(_ what: String) -> PointPaintError {
            failure(.malformed, "expected \(what) in the header, found " + (rest.isEmpty ? "its end" : PointPaintError.quote(rest)))
        }
        func skipSpaces() { while rest.first == " " { rest = rest.dropFirst() } }
        func take(_ token: String) -> Bool {
            skipSpaces()
            guard rest.hasPrefix(token) else { return false }
            rest = rest.dropFirst(token.count)
            return true
        }
        func quoted() throws -> String {
            guard take("'"), let end = rest.firstIndex(of: "'") else { throw fail("text in single quotes") }
            defer { rest = rest[rest.index(after: end)...] }
            return String(rest[..<end])
        }
        func integer() throws -> Int {
            skipSpaces()
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, digits.count <= 9, let value = Int(digits) else { throw fail("a whole number") }
            rest = rest.dropFirst(digits.count)
            return value
        }
        guard take("{") else { throw fail("{") }
        var out: [String: Value] = [:]
        while !take("}") {
            let key = try quoted()
            guard take(":") else { throw fail(":") }
            guard out[key] == nil else { throw failure(.malformed, "expected each header key once, found \(PointPaintError.quote(key)) twice") }
            skipSpaces()
            if rest.first == "'" {
                out[key] = .text(try quoted())
            } else if take("True") {
                out[key] = .flag(true)
            } else if take("False") {
                out[key] = .flag(false)
            } else if take("(") {
                var numbers: [Int] = []
                while !take(")") {
                    numbers.append(try integer())
                    if !take(",") {
                        guard take(")") else { throw fail(", or )") }
                        break
                    }
                }
                out[key] = .shape(numbers)
            } else {
                throw fail("a value ('text', True, False or a tuple)")
            }
            if !take(",") {
                guard take("}") else { throw fail(", or }") }
                break
            }
        }
        skipSpaces()
        guard rest.isEmpty else { throw fail("nothing after }") }
        return out
    }
}
