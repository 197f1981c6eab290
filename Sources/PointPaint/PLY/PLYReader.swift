import Foundation

/// Reads PLY files: ascii, binary little- and big-endian; any property order; both type naming
/// styles; list properties; `comment` and `obj_info`; LF, CRLF or CR header lines; a UTF-8
/// byte-order mark before `ply`.
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
        try MappedBytes(mapping: path, expected: "a PLY file").withUnsafeBytes { try parse($0, file: path) }
    }

    /// Parses a whole file already in memory; `file` names it in errors.
    ///
    /// - Complexity: O(bytes.count).
    public static func read(bytes: [UInt8], file: String) throws -> PLYFile {
        try bytes.withUnsafeBytes { try parse($0, file: file) }
    }

    /// Parses the header and all element data of `raw`.
    static func parse(_ raw: UnsafeRawBufferPointer, file: String) throws -> PLYFile {
        var (ply, data) = try parseHeader(raw, file: file)
        try parseData(&ply, from: data, file: file)
        return ply
    }

    /// Parses the element data that begins at `data` into `ply`'s elements.
    static func parseData(_ ply: inout PLYFile, from data: ByteCursor, file: String) throws {
        switch ply.encoding {
        case .ascii:
            var parser = ASCIIParser(cursor: data, file: file)
            for e in ply.elements.indices { try parser.read(&ply.elements[e]) }
            try parser.finish(lastElement: ply.elements.last?.name)
        case .binaryLittleEndian, .binaryBigEndian:
            var parser = BinaryParser(cursor: data, swap: ply.encoding == .binaryBigEndian, file: file)
            for e in ply.elements.indices { try parser.read(&ply.elements[e]) }
        }
    }

    /// Parses only the header: the file's format, comments and element declarations (with
    /// empty values), and the byte offset where the data begins.
    package static func readHeader(bytes: [UInt8], file: String) throws -> (header: PLYFile, dataOffset: Int) {
        try bytes.withUnsafeBytes {
            let (header, data) = try parseHeader($0, file: file)
            return (header, data.position)
        }
    }

    // MARK: header

    /// The header of `raw`, and a cursor at the first byte of its data (on the line after
    /// `end_header`).
    static func parseHeader(_ raw: UnsafeRawBufferPointer, file: String) throws -> (PLYFile, ByteCursor) {
        var cursor = ByteCursor(raw)
        // A UTF-8 byte-order mark, the magic word and the line-ending style.
        cursor.skipByteOrderMark()
        guard cursor.remaining >= 4, cursor[cursor.position ..< cursor.position + 3].elementsEqual("ply".utf8) else {
            throw PointPaintError(.malformed, file: file, place: .line(1), "expected the magic word 'ply' at the start of the file")
        }
        let terminator: UInt8
        switch cursor.load(UInt8.self, at: 3, byteSwapped: false) {
        case 0x0A: terminator = 0x0A
        case 0x0D: terminator = cursor.remaining > 4 && cursor.load(UInt8.self, at: 4, byteSwapped: false) == 0x0A ? 0x0A : 0x0D
        default:
            throw PointPaintError(.malformed, file: file, place: .line(1), "expected 'ply' alone on the first line")
        }
        _ = cursor.nextLine(terminatedBy: terminator)
        var ply = PLYFile(encoding: .ascii)
        var sawFormat = false
        /// The line of the last `element`, to name an element left without properties.
        var elementLine = 0
        // An element of entries without properties holds nothing a reader or writer could step
        // through but its count, which nothing in the file bounds (fuzzing found `element face
        // 844444444444444444` alone, which every pass over the entries then took forever on).
        func checkLastElement() throws {
            guard let last = ply.elements.last, last.count > 0, last.properties.isEmpty else { return }
            throw PointPaintError(.malformed, file: file, place: .line(elementLine),
                                  "expected a 'property' line for element \(PointPaintError.quote(last.name)) of \(last.count) entries, found none")
        }
        while true {
            let lineNumber = cursor.line
            let place = PointPaintError.Place.line(lineNumber)
            guard let line = cursor.nextLine(terminatedBy: terminator) else {
                throw PointPaintError(.malformed, file: file, place: place, "expected 'end_header' before the end of the file")
            }
            // A CR inside a line separates words too: a name holding one would not read back as
            // written (fuzzing found one, CRs then a tab at the end of a property line).
            let words = line.split { ByteCursor.isBlank($0) || $0 == 0x0D }
            guard let keyword = words.first else {
                throw PointPaintError(.malformed, file: file, place: place, "expected a header keyword, found an empty line")
            }
            func text(_ word: Slice<UnsafeRawBufferPointer>) -> String { String(decoding: word, as: UTF8.self) }
            switch text(keyword) {
            case "format":
                guard !sawFormat else { throw PointPaintError(.malformed, file: file, place: place, "expected one 'format' line, found a second") }
                guard words.count == 3, let encoding = PLYEncoding(rawValue: text(words[1])) else {
                    throw PointPaintError(words.count == 3 ? .unsupported : .malformed, file: file, place: place,
                                          "expected 'format ascii|binary_little_endian|binary_big_endian 1.0', found \(PointPaintError.quote(bytes: line))")
                }
                guard words[2].first == UInt8(ascii: "1") else {
                    throw PointPaintError(.unsupported, file: file, place: place, "expected format version 1.0, found \(PointPaintError.quote(bytes: words[2]))")
                }
                ply.encoding = encoding
                sawFormat = true
            case "comment":
                ply.comments.append(restOfLine(line, after: keyword))
            case "obj_info":
                ply.objInfo.append(restOfLine(line, after: keyword))
            case "element":
                guard words.count == 3 else {
                    throw PointPaintError(.malformed, file: file, place: place, "expected 'element NAME COUNT', found \(PointPaintError.quote(bytes: line))")
                }
                let count = try elementCount(words[2], file: file, place: place)
                try checkLastElement()
                ply.elements.append(PLYElement(name: text(words[1]), count: count, properties: []))
                elementLine = lineNumber
            case "property":
                guard !ply.elements.isEmpty else {
                    throw PointPaintError(.malformed, file: file, place: place, "expected an 'element' line before the first 'property'")
                }
                let property: PLYProperty
                if words.count >= 2 && text(words[1]) == "list" {
                    guard words.count == 5 else {
                        throw PointPaintError(.malformed, file: file, place: place,
                                              "expected 'property list COUNT_TYPE ITEM_TYPE NAME', found \(PointPaintError.quote(bytes: line))")
                    }
                    let countType = try scalarType(words[2], file: file, place: place)
                    let itemType = try scalarType(words[3], file: file, place: place)
                    guard countType.isInteger else {
                        throw PointPaintError(.malformed, file: file, place: place,
                                              "expected an integer type for a list count, found \(PointPaintError.quote(bytes: words[2]))")
                    }
                    property = PLYProperty(name: text(words[4]), countType: countType,
                                           items: PLYColumn(itemType, doubles: []), offsets: [0])
                } else {
                    guard words.count == 3 else {
                        throw PointPaintError(.malformed, file: file, place: place,
                                              "expected 'property TYPE NAME', found \(PointPaintError.quote(bytes: line))")
                    }
                    let type = try scalarType(words[1], file: file, place: place)
                    property = PLYProperty(name: text(words[2]), values: PLYColumn(type, doubles: []))
                }
                ply.elements[ply.elements.count - 1].properties.append(property)
            case "end_header":
                guard words.count == 1 else {
                    throw PointPaintError(.malformed, file: file, place: place, "expected 'end_header' alone on its line")
                }
                guard sawFormat else {
                    throw PointPaintError(.missing, file: file, place: place, "expected a 'format' line before 'end_header'")
                }
                try checkLastElement()
                return (ply, cursor)
            default:
                let hint = cursor.contains("end_header") ? "" : " (missing end_header?)"
                throw PointPaintError(.malformed, file: file, place: place,
                                      "expected a header keyword (format, comment, obj_info, element, property, end_header), found \(PointPaintError.quote(bytes: keyword))\(hint)")
            }
        }
    }

    /// An element's count: `.tooLarge` past `Int.max` (no file could hold that many entries).
    private static func elementCount(_ word: Slice<UnsafeRawBufferPointer>, file: String, place: PointPaintError.Place) throws -> Int {
        guard let count = ByteCursor.decimalInteger(UnsafeRawBufferPointer(rebasing: word)), !count.negative || count.magnitude == 0 else {
            throw PointPaintError(.malformed, file: file, place: place, "expected a non-negative element count, found \(PointPaintError.quote(bytes: word))")
        }
        guard !count.overflow, count.magnitude <= UInt64(Int.max) else {
            throw PointPaintError(.tooLarge, file: file, place: place,
                                  "expected an element count of at most \(Int.max), found \(PointPaintError.quote(bytes: word))")
        }
        return Int(count.magnitude)
    }

    /// The text after `keyword` and one blank.
    private static func restOfLine(_ line: UnsafeRawBufferPointer, after keyword: Slice<UnsafeRawBufferPointer>) -> String {
        var start = keyword.endIndex
        if start < line.count, ByteCursor.isBlank(line[start]) { start += 1 }
        return String(decoding: line[start...], as: UTF8.self)
    }

    private static func scalarType(_ word: Slice<UnsafeRawBufferPointer>, file: String, place: PointPaintError.Place) throws -> PLYScalarType {
        guard let t = PLYScalarType(headerName: String(decoding: word, as: UTF8.self)) else {
            throw PointPaintError(.unsupported, file: file, place: place,
                                  "expected a property type (char, uchar, short, ushort, int, uint, float, double or int8 … float64), found \(PointPaintError.quote(bytes: word))")
        }
        return t
    }
}

// MARK: - binary

/// Reads binary data through the file's cursor.
private struct BinaryParser {
    var cursor: ByteCursor
    let swap: Bool
    let file: String

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
        guard minimum > 0 else { return }  // no properties: the entries take no bytes
        let (total, overflow) = count.multipliedReportingOverflow(by: minimum)
        guard !overflow, total <= cursor.remaining else {
            throw PointPaintError(.tooLarge, file: file, place: .byteOffset(cursor.position),
                                  "element \(PointPaintError.quote(element.name)) declares \(count) entries of at least \(minimum) bytes, but only \(cursor.remaining) bytes follow")
        }
        if fixed {
            readFixed(&element, stride: minimum)
        } else {
            try readVariable(&element)
        }
    }

    /// Every property scalar: gather each column straight from the records.
    private mutating func readFixed(_ element: inout PLYElement, stride: Int) {
        let records = cursor.records(stride: stride, count: element.count)
        var offset = 0
        for i in element.properties.indices {
            let t = element.properties[i].type.valueType
            element.properties[i].values = BinaryParser.column(t, records, offset: offset, swap: swap)
            offset += t.size
        }
        cursor.skip(stride * element.count)
    }

    static func column(_ type: PLYScalarType, _ records: ByteCursor.Records, offset: Int, swap: Bool) -> PLYColumn {
        type.scalar.column(gathering: records, offset: offset, byteSwapped: swap)
    }

    /// Reads one value of `type` and moves past it.
    private mutating func next(_ type: PLYScalarType) -> Double {
        type.scalar.read(&cursor, byteSwapped: swap)
    }

    /// Elements with list properties: entry by entry.
    private mutating func readVariable(_ element: inout PLYElement) throws {
        var builders = element.properties.map { ColumnBuilder(property: $0, count: element.count) }
        for entry in 0 ..< element.count {
            for (k, p) in element.properties.enumerated() {
                switch p.type {
                case .scalar(let t):
                    try need(t.size, element, entry, p)
                    builders[k].append(next(t))
                case .list(let c, let item):
                    try need(c.size, element, entry, p)
                    let start = cursor.position
                    let n = next(c)
                    guard n >= 0 else {
                        throw PointPaintError(.outOfRange, file: file, place: .byteOffset(start),
                                              "expected a non-negative list length for \(PointPaintError.quote(p.name)) of \(PointPaintError.name(element.name)) \(entry), found \(Int(n))")
                    }
                    let items = Int(n)
                    let (size, overflow) = items.multipliedReportingOverflow(by: item.size)
                    guard !overflow, size <= cursor.remaining else {
                        throw PointPaintError(.tooLarge, file: file, place: .byteOffset(cursor.position),
                                              "list \(PointPaintError.quote(p.name)) of \(PointPaintError.name(element.name)) \(entry) holds \(items) items of \(item.size) bytes, but only \(cursor.remaining) bytes follow")
                    }
                    for _ in 0 ..< items { builders[k].append(next(item)) }
                    builders[k].offsets.append(builders[k].count)
                }
            }
        }
        for k in element.properties.indices { builders[k].finish(&element.properties[k]) }
    }

    private func need(_ size: Int, _ element: PLYElement, _ entry: Int, _ p: PLYProperty) throws {
        guard size <= cursor.remaining else {
            throw PointPaintError(.malformed, file: file, place: .byteOffset(cursor.position),
                                  "expected \(size) bytes for \(PointPaintError.quote(p.name)) of \(PointPaintError.name(element.name)) \(entry) of \(element.count), found the end of the file")
        }
    }
}

/// A column gathered value by value in its own type (each value already checked to fit it).
private struct ColumnBuilder {
    let values: any PLYColumnBuilder
    var offsets: [Int] = []

    init(property: PLYProperty, count: Int) {
        if case .list = property.type {
            values = property.type.valueType.scalar.builder(reserving: 0)
            offsets.reserveCapacity(count + 1)
            offsets.append(0)
        } else {
            values = property.type.valueType.scalar.builder(reserving: count)
        }
    }

    /// The number of values so far.
    var count: Int { values.count }

    @inline(__always)
    func append(_ value: Double) { values.append(value) }

    func finish(_ property: inout PLYProperty) {
        property.values = values.column()
        if case .list = property.type { property.listOffsets = offsets }
    }
}

// MARK: - ascii

/// Reads ascii data: one element entry a line, its values separated by spaces or tabs. A line
/// with too few or too many values is an error naming the line, the element entry and the counts,
/// so one damaged line cannot silently shift every value after it. Lines end with LF, CRLF or CR.
private struct ASCIIParser {
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
        var builders = element.properties.map { ColumnBuilder(property: $0, count: element.count) }
        for entry in 0 ..< element.count {
            guard !cursor.isAtEnd else {
                let expected = ASCIIParser.expectedValues(element, found: 0, stillNeeded: 0, property: -1, openList: false)
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
        let expected = ASCIIParser.expectedValues(element, found: found, stillNeeded: stillNeeded, property: k, openList: openList)
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
