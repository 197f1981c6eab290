import Foundation

/// Reads PLY files: ascii, binary little- and big-endian; any property order; both type naming
/// styles; list properties; `comment` and `obj_info`; LF, CRLF or CR header lines.
///
/// Bad input — a malformed header, an unknown type, counts larger than the file could hold,
/// truncated data, values that do not fit their type — throws a `PointPaintError` naming the
/// file, the place (`line N` or `byte offset N`) and what was expected. Counts are checked against
/// the bytes left before anything is allocated.
public enum PLYReader {
    /// Reads and parses the file at `path`.
    ///
    /// - Complexity: O(file size).
    public static func read(path: String) throws -> PLYFile {
        try mapped(path).withUnsafeBytes { try parse($0, file: path) }
    }

    /// Parses a whole file already in memory; `file` names it in errors.
    ///
    /// - Complexity: O(bytes.count).
    public static func read(bytes: [UInt8], file: String) throws -> PLYFile {
        try bytes.withUnsafeBytes { try parse($0, file: file) }
    }

    /// The file at `path` mapped read-only (its values are copied out while parsing, so nothing
    /// refers to the mapping afterwards).
    static func mapped(_ path: String) throws -> ImageBytes {
        try ImageBytes(mapping: path, count: FileBytes.regularSize(path, expected: "a PLY file"))
    }

    /// Parses the header and all element data of `raw`.
    static func parse(_ raw: UnsafeRawBufferPointer, file: String) throws -> PLYFile {
        var (ply, offset) = try parseHeader(raw, file: file)
        try parseData(&ply, raw, offset: offset, file: file)
        return ply
    }

    /// Parses the element data that begins at `offset` into `ply`'s elements.
    static func parseData(_ ply: inout PLYFile, _ raw: UnsafeRawBufferPointer, offset: Int, file: String) throws {
        switch ply.encoding {
        case .ascii:
            var parser = ASCIIParser(bytes: raw, position: offset, line: headerLineCount(raw, offset), file: file)
            for e in ply.elements.indices { try parser.read(&ply.elements[e]) }
            try parser.finish(lastElement: ply.elements.last?.name)
        case .binaryLittleEndian, .binaryBigEndian:
            var parser = BinaryParser(bytes: raw, position: offset, swap: ply.encoding == .binaryBigEndian, file: file)
            for e in ply.elements.indices { try parser.read(&ply.elements[e]) }
        }
    }

    /// Parses only the header: the file's format, comments and element declarations (with
    /// empty values), and the byte offset where the data begins.
    public static func readHeader(bytes: [UInt8], file: String) throws -> (header: PLYFile, dataOffset: Int) {
        try bytes.withUnsafeBytes { try parseHeader($0, file: file) }
    }

    // MARK: header

    private static func headerLineCount(_ raw: UnsafeRawBufferPointer, _ end: Int) -> Int {
        var lines = 1
        var sawLF = false
        for i in 0 ..< end where raw[i] == 0x0A { lines += 1; sawLF = true }
        if !sawLF { for i in 0 ..< end where raw[i] == 0x0D { lines += 1 } }
        return lines
    }

    static func parseHeader(_ raw: UnsafeRawBufferPointer, file: String) throws -> (PLYFile, Int) {
        // A UTF-8 byte-order mark, the magic word and the line-ending style.
        let start = raw.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        guard raw.count >= start + 4, raw[start] == 0x70, raw[start + 1] == 0x6C, raw[start + 2] == 0x79 else {  // "ply"
            throw PointPaintError(.malformed, file: file, place: .line(1), "expected the magic word 'ply' at the start of the file")
        }
        let crOnly: Bool
        switch raw[start + 3] {
        case 0x0A: crOnly = false
        case 0x0D: crOnly = raw.count < start + 5 || raw[start + 4] != 0x0A
        default:
            throw PointPaintError(.malformed, file: file, place: .line(1), "expected 'ply' alone on the first line")
        }
        var ply = PLYFile(encoding: .ascii)
        var sawFormat = false
        var position = start
        var lineNumber = 0
        let terminator: UInt8 = crOnly ? 0x0D : 0x0A
        while true {
            lineNumber += 1
            guard position < raw.count else {
                throw PointPaintError(.malformed, file: file, place: .line(lineNumber), "expected 'end_header' before the end of the file")
            }
            var end = position
            while end < raw.count && raw[end] != terminator { end += 1 }
            guard end < raw.count else {
                throw PointPaintError(.malformed, file: file, place: .line(lineNumber), "expected 'end_header' before the end of the file")
            }
            var contentEnd = end
            if !crOnly && contentEnd > position && raw[contentEnd - 1] == 0x0D { contentEnd -= 1 }
            let line = String(decoding: UnsafeRawBufferPointer(rebasing: raw[position ..< contentEnd]), as: UTF8.self)
            position = end + 1
            if lineNumber == 1 { continue }  // "ply"
            let place = PointPaintError.Place.line(lineNumber)
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let keyword = words.first else {
                throw PointPaintError(.malformed, file: file, place: place, "expected a header keyword, found an empty line")
            }
            switch keyword {
            case "format":
                guard !sawFormat else { throw PointPaintError(.malformed, file: file, place: place, "expected one 'format' line, found a second") }
                guard words.count == 3, let encoding = PLYEncoding(rawValue: String(words[1])) else {
                    throw PointPaintError(words.count == 3 ? .unsupported : .malformed, file: file, place: place,
                                          "expected 'format ascii|binary_little_endian|binary_big_endian 1.0', found \(PointPaintError.quote(line))")
                }
                guard words[2].hasPrefix("1") else {
                    throw PointPaintError(.unsupported, file: file, place: place, "expected format version 1.0, found \(PointPaintError.quote(words[2]))")
                }
                ply.encoding = encoding
                sawFormat = true
            case "comment":
                ply.comments.append(restOfLine(line, after: "comment"))
            case "obj_info":
                ply.objInfo.append(restOfLine(line, after: "obj_info"))
            case "element":
                guard words.count == 3 else {
                    throw PointPaintError(.malformed, file: file, place: place, "expected 'element NAME COUNT', found \(PointPaintError.quote(line))")
                }
                guard let count = Int(words[2]), count >= 0 else {
                    if words[2].allSatisfy({ $0.isASCII && $0.isNumber }) {
                        throw PointPaintError(.tooLarge, file: file, place: place,
                                              "expected an element count of at most \(Int.max), found \(PointPaintError.quote(words[2]))")
                    }
                    throw PointPaintError(.malformed, file: file, place: place,
                                          "expected a non-negative element count, found \(PointPaintError.quote(words[2]))")
                }
                ply.elements.append(PLYElement(name: String(words[1]), count: count, properties: []))
            case "property":
                guard !ply.elements.isEmpty else {
                    throw PointPaintError(.malformed, file: file, place: place, "expected an 'element' line before the first 'property'")
                }
                let property: PLYProperty
                if words.count >= 2 && words[1] == "list" {
                    guard words.count == 5 else {
                        throw PointPaintError(.malformed, file: file, place: place,
                                              "expected 'property list COUNT_TYPE ITEM_TYPE NAME', found \(PointPaintError.quote(line))")
                    }
                    let countType = try scalarType(words[2], file: file, place: place)
                    let itemType = try scalarType(words[3], file: file, place: place)
                    guard countType.isInteger else {
                        throw PointPaintError(.malformed, file: file, place: place,
                                              "expected an integer type for a list count, found \(PointPaintError.quote(words[2]))")
                    }
                    property = PLYProperty(name: String(words[4]), countType: countType,
                                           items: PLYColumn(itemType, doubles: []), offsets: [0])
                } else {
                    guard words.count == 3 else {
                        throw PointPaintError(.malformed, file: file, place: place, "expected 'property TYPE NAME', found \(PointPaintError.quote(line))")
                    }
                    let type = try scalarType(words[1], file: file, place: place)
                    property = PLYProperty(name: String(words[2]), values: PLYColumn(type, doubles: []))
                }
                ply.elements[ply.elements.count - 1].properties.append(property)
            case "end_header":
                guard words.count == 1 else {
                    throw PointPaintError(.malformed, file: file, place: place, "expected 'end_header' alone on its line")
                }
                guard sawFormat else {
                    throw PointPaintError(.missing, file: file, place: place, "expected a 'format' line before 'end_header'")
                }
                return (ply, position)
            default:
                let hint = contains(raw[position...], "end_header") ? "" : " (missing end_header?)"
                throw PointPaintError(.malformed, file: file, place: place,
                                      "expected a header keyword (format, comment, obj_info, element, property, end_header), found \(PointPaintError.quote(keyword))\(hint)")
            }
        }
    }

    /// Whether `bytes` contain `word` (for error hints only).
    private static func contains(_ bytes: Slice<UnsafeRawBufferPointer>, _ word: String) -> Bool {
        let w = Array(word.utf8)
        guard bytes.count >= w.count else { return false }
        var i = bytes.startIndex
        while i + w.count <= bytes.endIndex {
            if bytes[i] == w[0], bytes[i ..< i + w.count].elementsEqual(w) { return true }
            i += 1
        }
        return false
    }

    private static func restOfLine(_ line: String, after keyword: String) -> String {
        var rest = line.drop(while: { $0 == " " || $0 == "\t" }).dropFirst(keyword.count)
        if rest.first == " " || rest.first == "\t" { rest = rest.dropFirst() }
        return String(rest)
    }

    private static func scalarType(_ word: Substring, file: String, place: PointPaintError.Place) throws -> PLYScalarType {
        guard let t = PLYScalarType(headerName: word) else {
            throw PointPaintError(.unsupported, file: file, place: place,
                                  "expected a property type (char, uchar, short, ushort, int, uint, float, double or int8 … float64), found \(PointPaintError.quote(word))")
        }
        return t
    }
}

// MARK: - binary

/// Reads binary data through a bounds-checked cursor over the file's bytes.
private struct BinaryParser {
    let bytes: UnsafeRawBufferPointer
    var position: Int
    let swap: Bool
    let file: String

    var remaining: Int { bytes.count - position }

    mutating func read(_ element: inout PLYElement) throws {
        let count = element.count
        var minimum = 0
        var fixed = true
        for p in element.properties {
            switch p.type {
            case .scalar(let t): minimum += t.size
            case .list(let c, _): minimum += c.size; fixed = false
            }
        }
        if minimum == 0 {
            guard count == 0 || element.properties.isEmpty else { return }
            return
        }
        let (total, overflow) = count.multipliedReportingOverflow(by: minimum)
        guard !overflow, total <= remaining else {
            throw PointPaintError(.tooLarge, file: file, place: .byteOffset(position),
                                  "element '\(element.name)' declares \(count) entries of at least \(minimum) bytes, but only \(remaining) bytes follow")
        }
        if fixed {
            readFixed(&element, stride: minimum)
        } else {
            try readVariable(&element)
        }
    }

    /// Every property scalar: gather each column straight from the records.
    private mutating func readFixed(_ element: inout PLYElement, stride: Int) {
        let base = bytes.baseAddress! + position
        var offset = 0
        for i in element.properties.indices {
            let t = element.properties[i].type.valueType
            element.properties[i].values = BinaryParser.column(t, base: base + offset, stride: stride,
                                                               count: element.count, swap: swap)
            offset += t.size
        }
        position += stride * element.count
    }

    static func column(_ type: PLYScalarType, base: UnsafeRawPointer, stride: Int, count: Int, swap: Bool) -> PLYColumn {
        switch type {
        case .int8: .int8(gather(Int8.self, base, stride, count, swap))
        case .uint8: .uint8(gather(UInt8.self, base, stride, count, swap))
        case .int16: .int16(gather(Int16.self, base, stride, count, swap))
        case .uint16: .uint16(gather(UInt16.self, base, stride, count, swap))
        case .int32: .int32(gather(Int32.self, base, stride, count, swap))
        case .uint32: .uint32(gather(UInt32.self, base, stride, count, swap))
        case .float32: .float32(gather(UInt32.self, base, stride, count, swap).map { Float(bitPattern: $0) })
        case .float64: .float64(gather(UInt64.self, base, stride, count, swap).map { Double(bitPattern: $0) })
        }
    }

    private static func gather<T: FixedWidthInteger>(_: T.Type, _ base: UnsafeRawPointer, _ stride: Int, _ count: Int,
                                                     _ swap: Bool) -> [T] {
        [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            var p = base
            if swap {
                for i in 0 ..< count { buffer[i] = p.loadUnaligned(as: T.self).byteSwapped; p += stride }
            } else {
                for i in 0 ..< count { buffer[i] = p.loadUnaligned(as: T.self); p += stride }
            }
            initialized = count
        }
    }

    private func load(_ type: PLYScalarType, at offset: Int) -> Double {
        let p = bytes.baseAddress! + offset
        switch type {
        case .int8: return Double(p.loadUnaligned(as: Int8.self))
        case .uint8: return Double(p.loadUnaligned(as: UInt8.self))
        case .int16: let v = p.loadUnaligned(as: Int16.self); return Double(swap ? v.byteSwapped : v)
        case .uint16: let v = p.loadUnaligned(as: UInt16.self); return Double(swap ? v.byteSwapped : v)
        case .int32: let v = p.loadUnaligned(as: Int32.self); return Double(swap ? v.byteSwapped : v)
        case .uint32: let v = p.loadUnaligned(as: UInt32.self); return Double(swap ? v.byteSwapped : v)
        case .float32:
            let v = p.loadUnaligned(as: UInt32.self)
            return Double(Float(bitPattern: swap ? v.byteSwapped : v))
        case .float64:
            let v = p.loadUnaligned(as: UInt64.self)
            return Double(bitPattern: swap ? v.byteSwapped : v)
        }
    }

    /// Elements with list properties: entry by entry.
    private mutating func readVariable(_ element: inout PLYElement) throws {
        var builders = element.properties.map { ColumnBuilder(property: $0, count: element.count) }
        for entry in 0 ..< element.count {
            for (k, p) in element.properties.enumerated() {
                switch p.type {
                case .scalar(let t):
                    try need(t.size, element, entry, p)
                    builders[k].append(load(t, at: position))
                    position += t.size
                case .list(let c, let item):
                    try need(c.size, element, entry, p)
                    let n = load(c, at: position)
                    guard n >= 0 else {
                        throw PointPaintError(.outOfRange, file: file, place: .byteOffset(position),
                                              "expected a non-negative list length for '\(p.name)' of \(element.name) \(entry), found \(Int(n))")
                    }
                    position += c.size
                    let items = Int(n)
                    let (size, overflow) = items.multipliedReportingOverflow(by: item.size)
                    guard !overflow, size <= remaining else {
                        throw PointPaintError(.tooLarge, file: file, place: .byteOffset(position),
                                              "list '\(p.name)' of \(element.name) \(entry) holds \(items) items of \(item.size) bytes, but only \(remaining) bytes follow")
                    }
                    for _ in 0 ..< items {
                        builders[k].append(load(item, at: position))
                        position += item.size
                    }
                    builders[k].offsets.append(builders[k].count)
                }
            }
        }
        for k in element.properties.indices { builders[k].finish(&element.properties[k]) }
    }

    private func need(_ size: Int, _ element: PLYElement, _ entry: Int, _ p: PLYProperty) throws {
        guard size <= remaining else {
            throw PointPaintError(.malformed, file: file, place: .byteOffset(position),
                                  "expected \(size) bytes for '\(p.name)' of \(element.name) \(entry) of \(element.count), found the end of the file")
        }
    }
}

/// A column gathered value by value in its own type (each value already checked to fit it).
private struct ColumnBuilder {
    var column: PLYColumn
    var offsets: [Int] = []

    init(property: PLYProperty, count: Int) {
        column = PLYColumn(property.type.valueType, doubles: [])
        if case .list = property.type {
            offsets.reserveCapacity(count + 1)
            offsets.append(0)
        } else {
            column.reserveCapacity(count)
        }
    }

    /// The number of values so far.
    var count: Int { column.count }

    @inline(__always)
    mutating func append(_ value: Double) { column.append(value) }

    func finish(_ property: inout PLYProperty) {
        property.values = column
        if case .list = property.type { property.listOffsets = offsets }
    }
}

// MARK: - ascii

/// Reads ascii data: one element entry a line, its values separated by spaces or tabs. A line
/// with too few or too many values is an error naming the line, the element entry and the counts,
/// so one damaged line cannot silently shift every value after it. Lines end with LF, CRLF or CR.
private struct ASCIIParser {
    let bytes: UnsafeRawBufferPointer
    var position: Int
    var line: Int
    let file: String

    mutating func read(_ element: inout PLYElement) throws {
        let props = element.properties.count
        guard props > 0, element.count > 0 else { return }
        // Every entry needs at least one character and one separator a value.
        let (needed, overflow) = element.count.multipliedReportingOverflow(by: 2 * props)
        let remaining = bytes.count - position
        guard !overflow, needed - 1 <= remaining else {
            throw PointPaintError(.tooLarge, file: file, place: .line(line),
                                  "element '\(element.name)' declares \(element.count) entries of \(props) values, more than the \(remaining) bytes that follow could hold")
        }
        var builders = element.properties.map { ColumnBuilder(property: $0, count: element.count) }
        for entry in 0 ..< element.count {
            guard position < bytes.count else {
                let expected = ASCIIParser.expectedValues(element, found: 0, stillNeeded: 0, property: -1, openList: false)
                throw PointPaintError(.malformed, file: file, place: .line(line),
                                      "expected \(expected) for \(element.name) \(entry) of \(element.count), found the end of the file")
            }
            var found = 0
            for (k, p) in element.properties.enumerated() {
                switch p.type {
                case .scalar(let t):
                    guard let token = nextToken() else { throw tooFew(element, entry, found: found, stillNeeded: 1, property: k) }
                    builders[k].append(try value(token, t, element, entry, p))
                    found += 1
                case .list(let c, let item):
                    guard let countToken = nextToken() else {
                        throw tooFew(element, entry, found: found, stillNeeded: 1, property: k, openList: true)
                    }
                    let n = try value(countToken, c, element, entry, p)
                    guard n >= 0 else {
                        throw PointPaintError(.outOfRange, file: file, place: .line(line),
                                              "expected a non-negative list length for '\(p.name)' of \(element.name) \(entry), found \(Int(n))")
                    }
                    let items = Int(n)
                    guard items <= (bytes.count - position + 1) / 2 else {
                        throw PointPaintError(.tooLarge, file: file, place: .line(line),
                                              "list '\(p.name)' of \(element.name) \(entry) holds \(items) items, more than the rest of the file could hold")
                    }
                    found += 1
                    for j in 0 ..< items {
                        guard let token = nextToken() else {
                            throw tooFew(element, entry, found: found, stillNeeded: items - j, property: k)
                        }
                        builders[k].append(try value(token, item, element, entry, p))
                        found += 1
                    }
                    builders[k].offsets.append(builders[k].count)
                }
            }
            let extra = countRestOfLine()
            if extra > 0 {
                throw PointPaintError(.malformed, file: file, place: .line(line),
                                      "expected \(found) value\(found == 1 ? "" : "s") for \(element.name) \(entry) of \(element.count), found \(found + extra)")
            }
            endLine()
        }
        for k in element.properties.indices { builders[k].finish(&element.properties[k]) }
    }

    /// After the last element: only blank lines may follow.
    mutating func finish(lastElement: String?) throws {
        while position < bytes.count {
            while position < bytes.count, ASCIIParser.isBlank(bytes[position]) { position += 1 }
            let start = position
            if countRestOfLine() != 0 {
                let text = UnsafeRawBufferPointer(rebasing: bytes[start ..< position])
                let after = lastElement.map { "the last element ('\($0)')" } ?? "the header"
                throw PointPaintError(.malformed, file: file, place: .line(line),
                                      "expected the end of the file after \(after), found \(PointPaintError.quote(bytes: text))")
            }
            endLine()
        }
    }

    @inline(__always)
    private static func isBlank(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 }
    @inline(__always)
    private static func isLineEnd(_ b: UInt8) -> Bool { b == 0x0A || b == 0x0D }

    /// The next value on the current line, or nil at the line's end (or the file's).
    @inline(__always)
    private mutating func nextToken() -> UnsafeRawBufferPointer? {
        while position < bytes.count, ASCIIParser.isBlank(bytes[position]) { position += 1 }
        let start = position
        while position < bytes.count {
            let b = bytes[position]
            if ASCIIParser.isBlank(b) || ASCIIParser.isLineEnd(b) { break }
            position += 1
        }
        return position > start ? UnsafeRawBufferPointer(rebasing: bytes[start ..< position]) : nil
    }

    /// Counts the values left on the current line, leaving the position at its end.
    private mutating func countRestOfLine() -> Int {
        var extra = 0
        while nextToken() != nil { extra += 1 }
        return extra
    }

    /// Steps over the current line's end (LF, CRLF or a lone CR).
    private mutating func endLine() {
        guard position < bytes.count else { return }
        if bytes[position] == 0x0D, position + 1 < bytes.count, bytes[position + 1] == 0x0A { position += 1 }
        position += 1
        line += 1
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
        let expected = ASCIIParser.expectedValues(element, found: found, stillNeeded: stillNeeded, property: k, openList: openList)
        return PointPaintError(.malformed, file: file, place: .line(line),
                               "expected \(expected) for \(element.name) \(entry) of \(element.count), found \(found)")
    }

    /// `token` parsed as `type`: integers in decimal (or as an integral number such as `255.0`)
    /// within the type's range, floats as decimal numbers.
    private func value(_ token: UnsafeRawBufferPointer, _ type: PLYScalarType, _ element: PLYElement, _ entry: Int,
                       _ p: PLYProperty) throws -> Double {
        if let range = type.integerRange {
            var v = ASCIIParser.integer(token)
            if v == nil, let d = Double(String(decoding: token, as: UTF8.self)), d.isFinite, d.rounded() == d { v = d }
            guard let v else {
                throw PointPaintError(.malformed, file: file, place: .line(line),
                                      "expected an integer for \(describe(type, element, entry, p)), found \(PointPaintError.quote(bytes: token))")
            }
            guard range.contains(v) else {
                throw PointPaintError(.outOfRange, file: file, place: .line(line),
                                      "value \(v.magnitude < 1e18 ? "\(Int(v))" : "\(v)") for \(describe(type, element, entry, p)) lies outside \(Int(range.lowerBound))…\(Int(range.upperBound))")
            }
            return v
        }
        let text = String(decoding: token, as: UTF8.self)
        if type == .float32, let f = Float(text) { return Double(f) }
        if type == .float64, let d = Double(text) { return d }
        throw PointPaintError(.malformed, file: file, place: .line(line), "expected a number for \(describe(type, element, entry, p)), found \(PointPaintError.quote(bytes: token))")
    }

    private func describe(_ type: PLYScalarType, _ element: PLYElement, _ entry: Int, _ p: PLYProperty) -> String {
        "'\(p.name)' (\(type.headerName)) of \(element.name) \(entry) of \(element.count)"
    }

    /// A decimal integer with optional sign, or nil.
    private static func integer(_ token: UnsafeRawBufferPointer) -> Double? {
        var i = 0
        var negative = false
        if token[0] == 0x2D || token[0] == 0x2B { negative = token[0] == 0x2D; i = 1 }
        guard i < token.count, token.count - i <= 12 else { return nil }
        var v: Int64 = 0
        while i < token.count {
            let d = token[i] &- 0x30
            guard d < 10 else { return nil }
            v = v * 10 + Int64(d)
            i += 1
        }
        return Double(negative ? -v : v)
    }
}
