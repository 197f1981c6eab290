import Foundation

/// The contents of an Adobe / DaVinci Resolve `.cube` file (Adobe Cube LUT Specification 1.0):
/// a 3D table with an optional title and input domain.
///
/// ```
/// # comment
/// TITLE "Warm"
/// LUT_3D_SIZE 33
/// DOMAIN_MIN 0.0 0.0 0.0
/// DOMAIN_MAX 1.0 1.0 1.0
/// 0.000000 0.000000 0.000000      ← 33³ rows of R G B, red fastest
/// ```
public struct CubeFile: Sendable, Equatable {
    /// The `TITLE`, if the file has one.
    public var title: String?
    /// The table, over the unit domain (see `init(parsing:file:)` for other domains).
    public var cube: ColorCube

    /// Wraps a cube for writing.
    public init(cube: ColorCube, title: String? = nil) {
        self.cube = cube
        self.title = title
    }

    /// Reads and parses the `.cube` file at `path`.
    public init(contentsOf path: String) throws {
        try self.init(parsing: FileBytes.read(path, expected: "a .cube file"), file: path)
    }

    /// Parses `.cube` text.
    ///
    /// Accepts `#` comments (whole lines or after values), blank lines, `TITLE`, `LUT_3D_SIZE`,
    /// `DOMAIN_MIN` / `DOMAIN_MAX` and Resolve's `LUT_3D_INPUT_RANGE min max`; other keyword lines
    /// (words starting with a letter, such as `LUT_IN_VIDEO_RANGE`) are ignored. A domain other than
    /// 0…1 is resampled onto the unit lattice, since `ColorCube` covers 0…1.
    /// A quoted `TITLE` may contain `#`. A row starting with `nan` or `inf` is a row with a bad
    /// value, not a keyword.
    /// - Throws: `PointPaintError` naming the line: a 1D table, a size outside 2…256, a row without
    ///   exactly three finite numbers (numbers beyond a 32-bit float's range count as infinite, in
    ///   the domain lines too), rows before `LUT_3D_SIZE`, too many or too few rows, an empty
    ///   domain.
    public init(parsing bytes: [UInt8], file: String? = nil) throws {
        let parsed = try bytes.withUnsafeBytes { try CubeTextParser(file: file).parse($0) }
        title = parsed.title
        var cube = ColorCube(size: parsed.size, entries: parsed.entries)
        if parsed.domainMin != .zero || parsed.domainMax != SIMD3(repeating: 1) {
            let low = parsed.domainMin, span = parsed.domainMax - parsed.domainMin
            let raw = cube
            cube = ColorCube(size: raw.size) { p in
                SIMD3<Double>(raw.lookup((SIMD3<Float>(p) - low) / span))
            }
        }
        self.cube = cube
    }

    /// The file's text: a comment, the title, size, unit domain and one row per entry with six
    /// decimals (finer than a 16-bit code).
    public var text: String {
        var out = [UInt8]()
        encode { out += $0 }
        return String(decoding: out, as: UTF8.self)
    }

    /// Writes `text` to `path` atomically, a piece at a time: a 256³ cube's 450 MB of text is
    /// never held in memory whole.
    public func write(to path: String) throws {
        try AtomicFile.write(to: path) { temporary in
            var sink = try FileSink(creating: temporary, file: path)
            try encode { piece in try piece.withUnsafeBytes { try sink.write($0) } }
            try sink.finish()
        }
    }

    /// The bytes of `text`, handed to `consume` in pieces of about 64 KiB.
    private func encode(_ consume: ([UInt8]) throws -> Void) rethrows {
        var head = "# Written by PointPaint\n"
        if let title {
            // One line, whatever the title holds.
            let line = title.replacingOccurrences(of: "\"", with: "'").split(whereSeparator: \.isNewline).joined(separator: " ")
            head += "TITLE \"\(line)\"\n"
        }
        head += "LUT_3D_SIZE \(cube.size)\nDOMAIN_MIN 0.0 0.0 0.0\nDOMAIN_MAX 1.0 1.0 1.0\n"
        try consume(Array(head.utf8))
        let pieceBytes = 1 << 16
        var rows = [UInt8]()
        rows.reserveCapacity(pieceBytes + 64)
        for e in cube.entries {
            Self.appendDecimal(e.x, to: &rows)
            rows.append(UInt8(ascii: " "))
            Self.appendDecimal(e.y, to: &rows)
            rows.append(UInt8(ascii: " "))
            Self.appendDecimal(e.z, to: &rows)
            rows.append(UInt8(ascii: "\n"))
            if rows.count >= pieceBytes {
                try consume(rows)
                rows.removeAll(keepingCapacity: true)
            }
        }
        if !rows.isEmpty { try consume(rows) }
    }

    /// `value` with exactly six decimals (`-0.012500`), as `%.6f` would print it.
    private static func appendDecimal(_ value: Float, to out: inout [UInt8]) {
        let micro = (Double(value) * 1_000_000).rounded()
        guard micro.isFinite, abs(micro) < 1e15 else {
            out.append(contentsOf: Array("0.000000".utf8))
            return
        }
        var n = Int(micro)
        if n < 0 {
            out.append(UInt8(ascii: "-"))
            n = -n
        }
        out.append(contentsOf: Array(String(n / 1_000_000).utf8))
        out.append(UInt8(ascii: "."))
        var fraction = n % 1_000_000
        var digits = [UInt8](repeating: UInt8(ascii: "0"), count: 6)
        for i in stride(from: 5, through: 0, by: -1) {
            digits[i] = UInt8(ascii: "0") + UInt8(fraction % 10)
            fraction /= 10
        }
        out.append(contentsOf: digits)
    }
}

extension ColorCube {
    /// Reads a cube from a `.cube` file (see `CubeFile`).
    public init(cubeFileAt path: String) throws {
        self = try CubeFile(contentsOf: path).cube
    }

    /// Reads a cube from a `.png` (`init(pngAt:)`) or `.cube` (`init(cubeFileAt:)`) file, chosen
    /// by the extension.
    public init(contentsOf path: String) throws {
        switch try ColorCubeFileFormat(path: path) {
        case .png: try self.init(pngAt: path)
        case .cube: try self.init(cubeFileAt: path)
        }
    }

    /// Writes the cube as `.png` (16-bit unless `pngBitDepth` says 8) or `.cube`, chosen by the
    /// extension; `title` goes into a `.cube` file's `TITLE`.
    public func write(to path: String, title: String? = nil, pngBitDepth: Int = 16) throws {
        switch try ColorCubeFileFormat(path: path) {
        case .png: try writePNG(to: path, bitDepth: pngBitDepth)
        case .cube: try CubeFile(cube: self, title: title).write(to: path)
        }
    }
}

/// The file formats a colour cube is stored in, keyed by extension.
public enum ColorCubeFileFormat: String, Sendable, CaseIterable {
    /// An image with N³ pixels in raster order.
    case png
    /// Adobe / Resolve `.cube` text.
    case cube

    /// The format named by `path`'s extension (case-insensitive).
    /// - Throws: `PointPaintError` for any other extension.
    public init(path: String) throws {
        let ext = URL(fileURLWithPath: path).pathExtension.lowercased()
        guard let format = ColorCubeFileFormat(rawValue: ext) else {
            throw PointPaintError(.unsupported, file: path, "a colour cube file must end in .png or .cube")
        }
        self = format
    }
}

/// A line-by-line reader of `.cube` text through a `ByteCursor`: lines end with LF, CRLF or CR,
/// values are separated by blanks, a UTF-8 byte-order mark before the first line is skipped.
private struct CubeTextParser {
    let file: String?

    struct Result {
        var title: String?
        var size: Int
        var entries: [SIMD3<Float>]
        var domainMin: SIMD3<Float>
        var domainMax: SIMD3<Float>
    }

    func error(_ kind: PointPaintError.Kind, _ line: Int, _ message: String) -> PointPaintError {
        PointPaintError(kind, file: file, place: .line(line), message)
    }

    func parse(_ raw: UnsafeRawBufferPointer) throws -> Result {
        var title: String?
        var size: Int?
        var sizeLine = 0
        var entries = [SIMD3<Float>]()
        var domainMin = SIMD3<Float>(repeating: 0), domainMax = SIMD3<Float>(repeating: 1)
        var domainLine: Int?
        var cursor = ByteCursor(raw)
        cursor.skipByteOrderMark()
        var lineNumber = 0
        while !cursor.isAtEnd {
            lineNumber = cursor.line
            cursor.skipBlanks()
            var content = cursor.restOfLine()
            cursor.endLine()
            // A quoted title may hold a `#`: read it before comments are trimmed.
            if let text = Self.title(content) {
                title = text
                continue
            }
            if let hash = content.firstIndex(of: UInt8(ascii: "#")) { content = UnsafeRawBufferPointer(rebasing: content[..<hash]) }
            var words = ByteCursor(content)
            guard let first = words.nextToken() else { continue }
            let c = first[0]
            let isNumber = (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9"))
                || c == UInt8(ascii: "-") || c == UInt8(ascii: "+") || c == UInt8(ascii: ".")
                || Self.isNonFiniteWord(first)
            if isNumber {
                guard let n = size else {
                    throw error(.malformed, lineNumber, "expected LUT_3D_SIZE before the table rows")
                }
                var row = SIMD3<Float>()
                var count = 0
                var token: UnsafeRawBufferPointer? = first
                while let t = token {
                    let v = try number(t, line: lineNumber)
                    if count < 3 { row[count] = Float(v) }
                    count += 1
                    token = words.nextToken()
                }
                guard count == 3 else {
                    throw error(.malformed, lineNumber, "expected three numbers (R G B), found \(count)")
                }
                guard entries.count < n * n * n else {
                    throw error(.malformed, lineNumber, "more than the \(n * n * n) rows LUT_3D_SIZE \(n) needs")
                }
                entries.append(row)
                continue
            }
            let word = String(decoding: first, as: UTF8.self)
            switch word {
            case "LUT_3D_SIZE":
                guard entries.isEmpty, size == nil else { throw error(.malformed, lineNumber, "LUT_3D_SIZE given twice or after table rows") }
                let v = try numbers(&words, line: lineNumber)
                guard v.count == 1, let n = Int(exactly: v[0]) else {
                    throw error(.malformed, lineNumber, "LUT_3D_SIZE must be one whole number in 2…256")
                }
                guard ColorCube.sizeRange.contains(n) else {
                    throw error(.outOfRange, lineNumber, "LUT_3D_SIZE must be one whole number in 2…256, found \(n)")
                }
                size = n
                sizeLine = lineNumber
                // Each row takes at least 6 bytes ("0 0 0\n"): reserve no more than the rest of
                // the file could hold, whatever the header says.
                entries.reserveCapacity(min(n * n * n, cursor.remaining / 6 + 1))
            case "LUT_1D_SIZE":
                throw error(.unsupported, lineNumber, "1D tables (LUT_1D_SIZE) are not supported; expected LUT_3D_SIZE")
            case "DOMAIN_MIN", "DOMAIN_MAX":
                let v = try numbers(&words, line: lineNumber)
                guard v.count == 3 else { throw error(.malformed, lineNumber, "\(word) needs three numbers, found \(v.count)") }
                let d = SIMD3(Float(v[0]), Float(v[1]), Float(v[2]))
                if word == "DOMAIN_MIN" { domainMin = d } else { domainMax = d }
                domainLine = lineNumber
            case "LUT_3D_INPUT_RANGE":
                let v = try numbers(&words, line: lineNumber)
                guard v.count == 2 else { throw error(.malformed, lineNumber, "LUT_3D_INPUT_RANGE needs two numbers, found \(v.count)") }
                domainMin = SIMD3(repeating: Float(v[0]))
                domainMax = SIMD3(repeating: Float(v[1]))
                domainLine = lineNumber
            default:
                continue  // an unknown keyword, such as LUT_1D_INPUT_RANGE or LUT_IN_VIDEO_RANGE
            }
        }
        guard let size else {
            throw PointPaintError(.missing, file: file, "no LUT_3D_SIZE line: not a 3D .cube file")
        }
        guard entries.count == size * size * size else {
            throw error(.malformed, lineNumber, "the table ends after \(entries.count) rows; LUT_3D_SIZE \(size) on line \(sizeLine) needs \(size * size * size)")
        }
        guard domainMin.x < domainMax.x, domainMin.y < domainMax.y, domainMin.z < domainMax.z else {
            throw PointPaintError(.outOfRange, file: file, place: domainLine.map { .line($0) },
                                  "DOMAIN_MIN must be below DOMAIN_MAX in every channel")
        }
        return Result(title: title, size: size, entries: entries, domainMin: domainMin, domainMax: domainMax)
    }

    /// The title when `line` (blanks before it skipped) is a `TITLE` line: the text between the
    /// quotes (a `#` inside them is part of it), or, unquoted, the rest of the line before a
    /// comment.
    static func title(_ line: UnsafeRawBufferPointer) -> String? {
        // Called for every line: table rows fail the first byte test without allocating.
        let keyword = "TITLE".utf8
        guard line.count >= keyword.count, line[0] == UInt8(ascii: "T"), line.prefix(keyword.count).elementsEqual(keyword) else { return nil }
        var i = keyword.count
        guard i == line.count || ByteCursor.isBlank(line[i]) else { return nil }
        while i < line.count && ByteCursor.isBlank(line[i]) { i += 1 }
        var end = line.count
        if i < line.count && line[i] == UInt8(ascii: "\"") {
            i += 1
            end = line[i...].firstIndex(of: UInt8(ascii: "\"")) ?? line.count
        } else {
            if let hash = line[i...].firstIndex(of: UInt8(ascii: "#")) { end = hash }
            while end > i && ByteCursor.isBlank(line[end - 1]) { end -= 1 }
        }
        return String(decoding: line[i ..< end], as: UTF8.self)
    }

    /// Whether `word` is one C's `strtod` reads as NaN or infinity (`nan`, `inf`, `infinity`,
    /// `nan(…)` in any case): a table row with a bad value, not a keyword.
    static func isNonFiniteWord(_ word: UnsafeRawBufferPointer) -> Bool {
        let text = String(decoding: word, as: UTF8.self).lowercased()
        return text == "nan" || text == "inf" || text == "infinity" || text.hasPrefix("nan(")
    }

    /// `token` as a finite number that a 32-bit float can hold.
    func number(_ token: UnsafeRawBufferPointer, line: Int) throws -> Double {
        guard let value = ByteCursor.double(token) else {
            throw error(.malformed, line, "expected a finite number, found \(PointPaintError.quote(bytes: token))")
        }
        guard value.isFinite else {
            throw error(.outOfRange, line, "expected a finite number, found \(PointPaintError.quote(bytes: token))")
        }
        guard Float(value).isFinite else {
            throw error(.outOfRange, line, "expected a finite number, found \(PointPaintError.quote(bytes: token)), too large for a 32-bit float")
        }
        return value
    }

    /// The remaining tokens of a line as numbers (see `number`).
    func numbers(_ words: inout ByteCursor, line: Int) throws -> [Double] {
        var values = [Double]()
        while let token = words.nextToken() { values.append(try number(token, line: line)) }
        return values
    }
}
