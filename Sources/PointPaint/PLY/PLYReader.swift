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
        let bytes = try FileBytes.read(path, limit: Int.max)
        return try read(bytes: bytes, file: path)
    }

    /// Parses a whole file already in memory; `file` names it in errors.
    ///
    /// - Complexity: O(bytes.count).
    public static func read(bytes: [UInt8], file: String) throws -> PLYFile {
        try bytes.withUnsafeBytes { raw in
            var (ply, offset) = try parseHeader(raw, file: file)
            switch ply.encoding {
            case .ascii:
                var parser = ASCIIParser(bytes: raw, position: offset, line: headerLineCount(raw, offset), file: file)
                for e in ply.elements.indices { try parser.read(&ply.elements[e]) }
            case .binaryLittleEndian, .binaryBigEndian:
                var parser = BinaryParser(bytes: raw, position: offset, swap: ply.encoding == .binaryBigEndian, file: file)
                for e in ply.elements.indices { try parser.read(&ply.elements[e]) }
            }
            return ply
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
        // Magic and line-ending style.
        guard raw.count >= 4, raw[0] == 0x70, raw[1] == 0x6C, raw[2] == 0x79 else {  // "ply"
            throw PointPaintError(file: file, place: "line 1", "expected the magic word 'ply' at the start of the file")
        }
        let crOnly: Bool
        switch raw[3] {
        case 0x0A: crOnly = false
        case 0x0D: crOnly = raw.count < 5 || raw[4] != 0x0A
        default:
            throw PointPaintError(file: file, place: "line 1", "expected 'ply' alone on the first line")
        }
        var ply = PLYFile(encoding: .ascii)
        var sawFormat = false
        var position = 0
        var lineNumber = 0
        let terminator: UInt8 = crOnly ? 0x0D : 0x0A
        while true {
            lineNumber += 1
            guard position < raw.count else {
                throw PointPaintError(file: file, place: "line \(lineNumber)", "expected 'end_header' before the end of the file")
            }
            var end = position
            while end < raw.count && raw[end] != terminator { end += 1 }
            guard end < raw.count else {
                throw PointPaintError(file: file, place: "line \(lineNumber)", "expected 'end_header' before the end of the file")
            }
            var contentEnd = end
            if !crOnly && contentEnd > position && raw[contentEnd - 1] == 0x0D { contentEnd -= 1 }
            let line = String(decoding: UnsafeRawBufferPointer(rebasing: raw[position ..< contentEnd]), as: UTF8.self)
            position = end + 1
            if lineNumber == 1 { continue }  // "ply"
            let place = "line \(lineNumber)"
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let keyword = words.first else {
                throw PointPaintError(file: file, place: place, "expected a header keyword, found an empty line")
            }
            switch keyword {
            case "format":
                guard !sawFormat else { throw PointPaintError(file: file, place: place, "expected one 'format' line, found a second") }
                guard words.count == 3, let encoding = PLYEncoding(rawValue: String(words[1])) else {
                    throw PointPaintError(file: file, place: place,
                                          "expected 'format ascii|binary_little_endian|binary_big_endian 1.0', found '\(line)'")
                }
                guard words[2].hasPrefix("1") else {
                    throw PointPaintError(file: file, place: place, "expected format version 1.0, found '\(words[2])'")
                }
                ply.encoding = encoding
                sawFormat = true
            case "comment":
                ply.comments.append(restOfLine(line, after: "comment"))
            case "obj_info":
                ply.objInfo.append(restOfLine(line, after: "obj_info"))
            case "element":
                guard words.count == 3 else {
                    throw PointPaintError(file: file, place: place, "expected 'element NAME COUNT', found '\(line)'")
                }
                guard let count = Int(words[2]), count >= 0 else {
                    throw PointPaintError(file: file, place: place,
                                          "expected a non-negative element count, found '\(words[2])'")
                }
                ply.elements.append(PLYElement(name: String(words[1]), count: count, properties: []))
            case "property":
                guard !ply.elements.isEmpty else {
                    throw PointPaintError(file: file, place: place, "expected an 'element' line before the first 'property'")
                }
                let property: PLYProperty
                if words.count >= 2 && words[1] == "list" {
                    guard words.count == 5 else {
                        throw PointPaintError(file: file, place: place,
                                              "expected 'property list COUNT_TYPE ITEM_TYPE NAME', found '\(line)'")
                    }
                    let countType = try scalarType(words[2], file: file, place: place)
                    let itemType = try scalarType(words[3], file: file, place: place)
                    guard countType.isInteger else {
                        throw PointPaintError(file: file, place: place,
                                              "expected an integer type for a list count, found '\(words[2])'")
                    }
                    property = PLYProperty(name: String(words[4]), countType: countType,
                                           items: PLYColumn(itemType, doubles: []), offsets: [0])
                } else {
                    guard words.count == 3 else {
                        throw PointPaintError(file: file, place: place, "expected 'property TYPE NAME', found '\(line)'")
                    }
                    let type = try scalarType(words[1], file: file, place: place)
                    property = PLYProperty(name: String(words[2]), values: PLYColumn(type, doubles: []))
                }
                ply.elements[ply.elements.count - 1].properties.append(property)
            case "end_header":
                guard words.count == 1 else {
                    throw PointPaintError(file: file, place: place, "expected 'end_header' alone on its line")
                }
                guard sawFormat else {
                    throw PointPaintError(file: file, place: place, "expected a 'format' line before 'end_header'")
                }
                return (ply, position)
            default:
                throw PointPaintError(file: file, place: place,
                                      "expected a header keyword (format, comment, obj_info, element, property, end_header), found '\(keyword)'")
            }
        }
    }

    private static func restOfLine(_ line: String, after keyword: String) -> String {
        var rest = line.drop(while: { $0 == " " || $0 == "\t" }).dropFirst(keyword.count)
        if rest.first == " " || rest.first == "\t" { rest = rest.dropFirst() }
        return String(rest)
    }

    private static func scalarType(_ word: Substring, file: String, place: String) throws -> PLYScalarType {
        guard let t = PLYScalarType(headerName: word) else {
            throw PointPaintError(file: file, place: place,
                                  "expected a property type (char, uchar, short, ushort, int, uint, float, double or int8 … float64), found '\(word)'")
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
            throw PointPaintError(file: file, place: "byte offset \(position)",
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
                    builders[k].values.append(load(t, at: position))
                    position += t.size
                case .list(let c, let item):
                    try need(c.size, element, entry, p)
                    let n = load(c, at: position)
                    guard n >= 0 else {
                        throw PointPaintError(file: file, place: "byte offset \(position)",
                                              "expected a non-negative list length for '\(p.name)' of \(element.name) \(entry), found \(Int(n))")
                    }
                    position += c.size
                    let items = Int(n)
                    let (size, overflow) = items.multipliedReportingOverflow(by: item.size)
                    guard !overflow, size <= remaining else {
                        throw PointPaintError(file: file, place: "byte offset \(position)",
                                              "list '\(p.name)' of \(element.name) \(entry) holds \(items) items of \(item.size) bytes, but only \(remaining) bytes follow")
                    }
                    for _ in 0 ..< items {
                        builders[k].values.append(load(item, at: position))
                        position += item.size
                    }
                    builders[k].offsets.append(builders[k].values.count)
                }
            }
        }
        for k in element.properties.indices { builders[k].finish(&element.properties[k]) }
    }

    private func need(_ size: Int, _ element: PLYElement, _ entry: Int, _ p: PLYProperty) throws {
        guard size <= remaining else {
            throw PointPaintError(file: file, place: "byte offset \(position)",
                                  "expected \(size) bytes for '\(p.name)' of \(element.name) \(entry) of \(element.count), found the end of the file")
        }
    }
}

/// Values gathered as Doubles (exact for every PLY type), turned into a typed column at the end.
private struct ColumnBuilder {
    var values: [Double] = []
    var offsets: [Int] = []

    init(property: PLYProperty, count: Int) {
        if case .list = property.type {
            offsets.reserveCapacity(count + 1)
            offsets.append(0)
        } else {
            values.reserveCapacity(count)
        }
    }

    func finish(_ property: inout PLYProperty) {
        property.values = PLYColumn(property.type.valueType, doubles: values)
        if case .list = property.type { property.listOffsets = offsets }
    }
}

// MARK: - ascii

/// Reads whitespace-separated values, counting lines for errors.
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
            throw PointPaintError(file: file, place: "line \(line)",
                                  "element '\(element.name)' declares \(element.count) entries of \(props) values, more than the \(remaining) bytes that follow could hold")
        }
        var builders = element.properties.map { ColumnBuilder(property: $0, count: element.count) }
        for entry in 0 ..< element.count {
            for (k, p) in element.properties.enumerated() {
                switch p.type {
                case .scalar(let t):
                    builders[k].values.append(try value(t, element, entry, p))
                case .list(let c, let item):
                    let n = try value(c, element, entry, p)
                    guard n >= 0 else {
                        throw PointPaintError(file: file, place: "line \(line)",
                                              "expected a non-negative list length for '\(p.name)' of \(element.name) \(entry), found \(Int(n))")
                    }
                    let items = Int(n)
                    guard items <= (bytes.count - position + 1) / 2 else {
                        throw PointPaintError(file: file, place: "line \(line)",
                                              "list '\(p.name)' of \(element.name) \(entry) holds \(items) items, more than the rest of the file could hold")
                    }
                    for _ in 0 ..< items { builders[k].values.append(try value(item, element, entry, p)) }
                    builders[k].offsets.append(builders[k].values.count)
                }
            }
        }
        for k in element.properties.indices { builders[k].finish(&element.properties[k]) }
    }

    private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0x0B || b == 0x0C }

    /// The next token, parsed as `type`.
    private mutating func value(_ type: PLYScalarType, _ element: PLYElement, _ entry: Int, _ p: PLYProperty) throws -> Double {
        let lineBefore = line
        var sawLF = false
        while position < bytes.count, ASCIIParser.isSpace(bytes[position]) {
            if bytes[position] == 0x0A { line += 1; sawLF = true }
            else if bytes[position] == 0x0D, position + 1 >= bytes.count || bytes[position + 1] != 0x0A, !sawLF { line += 1 }
            position += 1
        }
        let start = position
        while position < bytes.count, !ASCIIParser.isSpace(bytes[position]) { position += 1 }
        let what = "'\(p.name)' (\(type.headerName)) of \(element.name) \(entry) of \(element.count)"
        guard position > start else {
            throw PointPaintError(file: file, place: "line \(lineBefore)", "expected a value for \(what), found the end of the file")
        }
        let token = UnsafeRawBufferPointer(rebasing: bytes[start ..< position])
        if let range = type.integerRange {
            guard let v = ASCIIParser.integer(token) else {
                throw PointPaintError(file: file, place: "line \(line)",
                                      "expected an integer for \(what), found '\(String(decoding: token, as: UTF8.self))'")
            }
            guard range.contains(v) else {
                throw PointPaintError(file: file, place: "line \(line)",
                                      "value \(Int(v)) for \(what) lies outside \(Int(range.lowerBound))…\(Int(range.upperBound))")
            }
            return v
        }
        let text = String(decoding: token, as: UTF8.self)
        if type == .float32, let f = Float(text) { return Double(f) }
        if type == .float64, let d = Double(text) { return d }
        throw PointPaintError(file: file, place: "line \(line)", "expected a number for \(what), found '\(text)'")
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
