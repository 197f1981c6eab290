import Foundation

/// The PLY header: `ply`, the format line, comments, `obj_info`, and the element and property
/// declarations, each checked as it is read.
extension PLYReader {
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
