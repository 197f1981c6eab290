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
            var parser = PLYASCIIParser(cursor: data, file: file)
            for e in ply.elements.indices { try parser.read(&ply.elements[e]) }
            try parser.finish(lastElement: ply.elements.last?.name)
        case .binaryLittleEndian, .binaryBigEndian:
            var parser = PLYBinaryParser(cursor: data, swap: ply.encoding == .binaryBigEndian, file: file)
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
}

/// A column gathered value by value in its own type (each value already checked to fit it).
struct PLYColumnGatherer {
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
