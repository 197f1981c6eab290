/// How a PLY file stores its data after the header.
public enum PLYEncoding: String, Sendable, CaseIterable, Codable {
    /// Whitespace-separated text, one element entry a line.
    case ascii
    /// Packed binary, little-endian (the default for writing).
    case binaryLittleEndian = "binary_little_endian"
    /// Packed binary, big-endian.
    case binaryBigEndian = "binary_big_endian"

    /// The word in the header's `format` line.
    public var headerName: String { rawValue }
}

/// The scalar types a PLY property may have. Both naming styles are read (`uchar` and `uint8`,
/// `float` and `float32`, …); the classic names are written.
public enum PLYScalarType: String, Sendable, CaseIterable, Codable {
    /// Signed 8-bit integer (`char`, `int8`).
    case int8
    /// Unsigned 8-bit integer (`uchar`, `uint8`).
    case uint8
    /// Signed 16-bit integer (`short`, `int16`).
    case int16
    /// Unsigned 16-bit integer (`ushort`, `uint16`).
    case uint16
    /// Signed 32-bit integer (`int`, `int32`).
    case int32
    /// Unsigned 32-bit integer (`uint`, `uint32`).
    case uint32
    /// IEEE single precision (`float`, `float32`).
    case float32
    /// IEEE double precision (`double`, `float64`).
    case float64

    /// The Swift type that holds this type's values.
    package var scalar: any PLYScalar.Type {
        switch self {
        case .int8: Int8.self
        case .uint8: UInt8.self
        case .int16: Int16.self
        case .uint16: UInt16.self
        case .int32: Int32.self
        case .uint32: UInt32.self
        case .float32: Float.self
        case .float64: Double.self
        }
    }

    /// Bytes in binary encodings.
    public var size: Int { scalar.byteCount }

    /// Whether the type holds integers.
    public var isInteger: Bool { integerRange != nil }

    /// The classic name written in headers (`uchar`, `float`, …).
    public var headerName: String {
        switch self {
        case .int8: "char"
        case .uint8: "uchar"
        case .int16: "short"
        case .uint16: "ushort"
        case .int32: "int"
        case .uint32: "uint"
        case .float32: "float"
        case .float64: "double"
        }
    }

    /// The type for a header word in either naming style, or nil when unknown.
    public init?(headerName: some StringProtocol) {
        guard let type = Self.allCases.first(where: { $0.headerName == headerName || $0.rawValue == headerName }) else {
            return nil
        }
        self = type
    }

    /// The range of values an integer type holds (every value of the others fits a Double).
    var integerRange: ClosedRange<Double>? { scalar.integerRange }
}

/// A property's declared type: one scalar, or a list with a count type and an item type.
public enum PLYPropertyType: Sendable, Equatable, CustomStringConvertible {
    /// One value an entry.
    case scalar(PLYScalarType)
    /// A variable-length list an entry (`property list uchar int vertex_indices`).
    case list(count: PLYScalarType, item: PLYScalarType)

    /// The type as it appears in a header: `float` or `list uchar int`.
    public var description: String {
        switch self {
        case .scalar(let t): t.headerName
        case .list(let c, let i): "list \(c.headerName) \(i.headerName)"
        }
    }

    /// The type of the stored values (the item type for lists).
    public var valueType: PLYScalarType {
        switch self {
        case .scalar(let t): t
        case .list(_, let i): i
        }
    }
}

/// A column of values of one scalar type.
///
/// The cases are the public face; every operation is written once, for any `PLYScalar`, on the
/// array behind the case (`values`).
public enum PLYColumn: Sendable, Equatable {
    /// `char` values.
    case int8([Int8])
    /// `uchar` values.
    case uint8([UInt8])
    /// `short` values.
    case int16([Int16])
    /// `ushort` values.
    case uint16([UInt16])
    /// `int` values.
    case int32([Int32])
    /// `uint` values.
    case uint32([UInt32])
    /// `float` values.
    case float32([Float])
    /// `double` values.
    case float64([Double])

    /// The array behind the case, as one generic column.
    package var values: any PLYValues {
        switch self {
        case .int8(let v): v
        case .uint8(let v): v
        case .int16(let v): v
        case .uint16(let v): v
        case .int32(let v): v
        case .uint32(let v): v
        case .float32(let v): v
        case .float64(let v): v
        }
    }

    /// The scalar type of the values.
    public var scalarType: PLYScalarType { values.scalarType }

    /// Number of values.
    public var count: Int { values.count }

    /// The value at `index` as a Double (exact for every type).
    public subscript(index: Int) -> Double { values.double(at: index) }

    /// Every value as a Double (exact for every type).
    ///
    /// - Complexity: O(n).
    public func doubles() -> [Double] { values.doubles }

    /// Every value as a Float (rounded for `double` and large integers).
    ///
    /// - Complexity: O(n).
    public func floats() -> [Float] { values.floats }

    /// A column of `type` holding `values`, which must fit the type (as the reader checks).
    package init(_ type: PLYScalarType, doubles values: [Double]) {
        self = type.scalar.column(fitting: values)
    }
}

/// One property of an element with its values.
public struct PLYProperty: Sendable, Equatable {
    /// The property's name (`x`, `red`, `vertex_indices`).
    public var name: String
    /// Its declared type.
    public var type: PLYPropertyType
    /// Scalar properties: one value an entry. List properties: every entry's items, concatenated.
    public var values: PLYColumn
    /// List properties: where each entry's items start in `values`, plus the end (count + 1
    /// offsets). Empty for scalar properties.
    public var listOffsets: [Int]

    /// A scalar property.
    public init(name: String, values: PLYColumn) {
        self.name = name
        self.type = .scalar(values.scalarType)
        self.values = values
        self.listOffsets = []
    }

    /// A list property whose entry `i` holds `items[offsets[i] ..< offsets[i + 1]]`.
    public init(name: String, countType: PLYScalarType, items: PLYColumn, offsets: [Int]) {
        precondition(countType.isInteger, "a list's count type must be an integer type")
        precondition(offsets.first == 0 && offsets.last == items.count, "list offsets must span the items")
        self.name = name
        self.type = .list(count: countType, item: items.scalarType)
        self.values = items
        self.listOffsets = offsets
    }

    /// A list property from one array of items an entry.
    public init(name: String, countType: PLYScalarType, itemType: PLYScalarType, lists: [[Double]]) {
        var offsets = [0]
        offsets.reserveCapacity(lists.count + 1)
        for l in lists { offsets.append(offsets.last! + l.count) }
        self.init(name: name, countType: countType, items: PLYColumn(itemType, doubles: lists.flatMap { $0 }),
                  offsets: offsets)
    }

    /// Number of entries.
    public var entryCount: Int {
        if case .list = type { return max(0, listOffsets.count - 1) }
        return values.count
    }

    /// Entry `index` of a list property as Doubles.
    public func list(at index: Int) -> [Double] {
        (listOffsets[index] ..< listOffsets[index + 1]).map { values[$0] }
    }
}

/// One element (`vertex`, `face`, …): a count and its properties.
public struct PLYElement: Sendable, Equatable {
    /// The element's name.
    public var name: String
    /// Number of entries.
    public var count: Int
    /// Its properties in file order.
    public var properties: [PLYProperty]

    /// Creates an element; every property must hold `count` entries.
    public init(name: String, count: Int, properties: [PLYProperty]) {
        self.name = name
        self.count = count
        self.properties = properties
    }

    /// The first property named `name`.
    public subscript(property name: String) -> PLYProperty? {
        properties.first { $0.name == name }
    }
}

/// A whole PLY file: format, comments and elements with their data.
public struct PLYFile: Sendable, Equatable {
    /// How the data is (or will be) encoded.
    public var encoding: PLYEncoding
    /// `comment` lines, without the keyword.
    public var comments: [String]
    /// `obj_info` lines, without the keyword.
    public var objInfo: [String]
    /// Elements in file order.
    public var elements: [PLYElement]

    /// Creates a file.
    public init(encoding: PLYEncoding = .binaryLittleEndian, comments: [String] = [], objInfo: [String] = [],
                elements: [PLYElement] = []) {
        self.encoding = encoding
        self.comments = comments
        self.objInfo = objInfo
        self.elements = elements
    }

    /// The first element named `name`.
    public subscript(element name: String) -> PLYElement? {
        elements.first { $0.name == name }
    }

    /// The value of a `comment voxel_size S` line, when present and a positive number.
    public var voxelSize: Float? {
        for c in comments {
            let words = c.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if words.count >= 2, words[0] == "voxel_size", let s = Float(words[1]), s > 0, s.isFinite { return s }
        }
        return nil
    }
}
