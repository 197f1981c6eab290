import Foundation

/// Reads binary data through the file's cursor.
struct PLYBinaryParser {
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
            element.properties[i].values = PLYBinaryParser.column(t, records, offset: offset, swap: swap)
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
        var builders = element.properties.map { PLYColumnGatherer(property: $0, count: element.count) }
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
