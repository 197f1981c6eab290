/// A Swift type that holds the values of one PLY scalar type, so every column operation (read,
/// convert, encode) is written once, generically, instead of once a type (the habit of happly's
/// `TypedProperty<T>`). `Int8` … `UInt32`, `Float` and `Double` conform.
///
/// The operations on whole columns are requirements with one default implementation each, so a
/// call through `PLYScalarType.scalar` or a column's `values` reaches code specialised for the
/// concrete type.
package protocol PLYScalar: Sendable, Equatable, CustomStringConvertible {
    /// The integer that holds the value's bytes as binary files store them.
    associatedtype Bits: FixedWidthInteger

    /// The PLY type of these values.
    static var plyType: PLYScalarType { get }
    /// The values as the `PLYColumn` case of this type.
    static func column(_ values: [Self]) -> PLYColumn
    /// The value with these bytes.
    init(bits: Bits)
    /// The value's bytes.
    var bits: Bits { get }
    /// The value exactly as a Double.
    var double: Double { get }
    /// The value as a Float (rounded for `double` and large integers; a `float` as it is).
    var float: Float { get }
    /// `value`, which must fit the type (as the reader checks before it converts).
    init(fitting value: Double)
    /// The value as a colour channel in 0…1: integers divided by their type's maximum, floats
    /// as they are.
    var unitChannel: Float { get }
    /// The values an integer type holds, as Doubles; nil for floating-point types.
    static var integerRange: ClosedRange<Double>? { get }

    /// Every value exactly as a Double.
    static func doubles(_ values: [Self]) -> [Double]
    /// Every value as a Float.
    static func floats(_ values: [Self]) -> [Float]
    /// Every value as a colour channel (`unitChannel`).
    static func unitChannels(_ values: [Self]) -> [Float]
    /// A column of `values`, each of which must fit the type.
    static func column(fitting values: [Double]) -> PLYColumn
    /// Field `offset` of every record, as a column of this type.
    static func column(gathering records: ByteCursor.Records, offset: Int, byteSwapped: Bool) -> PLYColumn
    /// Reads one value at `cursor` and moves past it.
    static func read(_ cursor: inout ByteCursor, byteSwapped: Bool) -> Double
    /// Appends `value` (which must fit the type) as a file stores it: its decimal text, or its
    /// bytes in the file's byte order.
    static func encode(_ value: Double, ascii: Bool, byteSwapped: Bool, to out: inout [UInt8])
    /// A builder that appends values of this type one at a time.
    static func builder(reserving count: Int) -> any PLYColumnBuilder
}

extension PLYScalar {
    /// The PLY type whose Swift type (`PLYScalarType.scalar`, the one place that pairs them)
    /// is this one.
    package static var plyType: PLYScalarType {
        PLYScalarType.allCases.first { ObjectIdentifier($0.scalar) == ObjectIdentifier(Self.self) }!
    }
}

extension PLYScalar where Self: FixedWidthInteger {
    package init(bits: Self) { self = bits }
    package var bits: Self { self }
    package var double: Double { Double(self) }
    package init(fitting value: Double) { self.init(value) }
    package static var integerRange: ClosedRange<Double>? { Double(Self.min) ... Double(Self.max) }
    /// The value divided by the type's maximum, rounded once.
    package var unitChannel: Float { Float(Double(self) / Double(Self.max)) }
}

extension PLYScalar where Self: BinaryFloatingPoint {
    package static var integerRange: ClosedRange<Double>? { nil }
}

extension Int8: PLYScalar { package static func column(_ values: [Int8]) -> PLYColumn { .int8(values) } }
extension Int16: PLYScalar { package static func column(_ values: [Int16]) -> PLYColumn { .int16(values) } }
extension Int32: PLYScalar { package static func column(_ values: [Int32]) -> PLYColumn { .int32(values) } }
extension UInt32: PLYScalar { package static func column(_ values: [UInt32]) -> PLYColumn { .uint32(values) } }

/// 8- and 16-bit colour codes scale by a multiply with the rounded reciprocal, as cloud files
/// have always been read (for 126 of the 256 codes that differs from dividing by 255).
extension UInt8: PLYScalar {
    package static func column(_ values: [UInt8]) -> PLYColumn { .uint8(values) }
    package var unitChannel: Float { Float(self) * (1 / 255) }
}

extension UInt16: PLYScalar {
    package static func column(_ values: [UInt16]) -> PLYColumn { .uint16(values) }
    package var unitChannel: Float { Float(self) * (1 / 65535) }
}

extension Float: PLYScalar {
    package static func column(_ values: [Float]) -> PLYColumn { .float32(values) }
    package init(bits: UInt32) { self.init(bitPattern: bits) }
    package var bits: UInt32 { bitPattern }
    package var double: Double { Double(self) }
    package init(fitting value: Double) { self.init(value) }
    package var float: Float { self }
    package var unitChannel: Float { self }
    package static func floats(_ values: [Float]) -> [Float] { values }
}

extension Double: PLYScalar {
    package static func column(_ values: [Double]) -> PLYColumn { .float64(values) }
    package init(bits: UInt64) { self.init(bitPattern: bits) }
    package var bits: UInt64 { bitPattern }
    package var double: Double { self }
    package init(fitting value: Double) { self = value }
    package var unitChannel: Float { Float(self) }
    package static func doubles(_ values: [Double]) -> [Double] { values }
}

// MARK: - operations, each written once

extension PLYScalar {
    /// Bytes a value in binary files.
    package static var byteCount: Int { MemoryLayout<Bits>.size }

    package var float: Float { Float(double) }

    /// The value as a count of views (`PLYFile.viewsName`): integers exactly, negatives 0, past
    /// `UInt32.max` the maximum; floating-point values as Floats, rounded (`PLYFile.viewCount`).
    package var viewCount: UInt32 {
        guard Self.integerRange != nil else { return PLYFile.viewCount(float) }
        let d = double
        return d <= 0 ? 0 : d >= 4_294_967_295 ? .max : UInt32(d)
    }

    package static func doubles(_ values: [Self]) -> [Double] { values.map(\.double) }

    package static func floats(_ values: [Self]) -> [Float] { values.map(\.float) }

    package static func unitChannels(_ values: [Self]) -> [Float] { values.map(\.unitChannel) }

    package static func column(fitting values: [Double]) -> PLYColumn {
        column(values.map(Self.init(fitting:)))
    }

    package static func column(gathering records: ByteCursor.Records, offset: Int, byteSwapped: Bool) -> PLYColumn {
        column(records.gather(Bits.self, offset: offset, byteSwapped: byteSwapped, as: Self.init(bits:)))
    }

    package static func read(_ cursor: inout ByteCursor, byteSwapped: Bool) -> Double {
        Self(bits: cursor.read(Bits.self, byteSwapped: byteSwapped)).double
    }

    package static func encode(_ value: Double, ascii: Bool, byteSwapped: Bool, to out: inout [UInt8]) {
        let v = Self(fitting: value)
        if ascii {
            out.append(contentsOf: v.description.utf8)
        } else {
            withUnsafeBytes(of: byteSwapped ? v.bits.byteSwapped : v.bits) { out.append(contentsOf: $0) }
        }
    }

    package static func builder(reserving count: Int) -> any PLYColumnBuilder {
        TypedColumnBuilder<Self>(reserving: count)
    }
}

/// The array behind a `PLYColumn` case, whatever its type.
package protocol PLYValues: Sendable {
    /// The PLY type of the values.
    var scalarType: PLYScalarType { get }
    /// Number of values.
    var count: Int { get }
    /// Value `index` exactly as a Double.
    func double(at index: Int) -> Double
    /// Every value exactly as a Double.
    var doubles: [Double] { get }
    /// Every value as a Float.
    var floats: [Float] { get }
    /// Every value as a colour channel in 0…1 (see `PLYScalar.unitChannel`).
    var unitChannels: [Float] { get }
    /// Every value as a count of views (see `PLYScalar.viewCount`).
    var viewCounts: [UInt32] { get }
}

extension Array: PLYValues where Element: PLYScalar {
    package var scalarType: PLYScalarType { Element.plyType }
    package func double(at index: Int) -> Double { self[index].double }
    package var doubles: [Double] { Element.doubles(self) }
    package var floats: [Float] { Element.floats(self) }
    package var unitChannels: [Float] { Element.unitChannels(self) }
    package var viewCounts: [UInt32] { map(\.viewCount) }
}

/// Values appended one at a time while a file is read, in their own type.
package protocol PLYColumnBuilder: AnyObject {
    /// Number of values so far.
    var count: Int { get }
    /// Appends `value`, which must fit the column's type.
    func append(_ value: Double)
    /// The values as a column.
    func column() -> PLYColumn
}

private final class TypedColumnBuilder<T: PLYScalar>: PLYColumnBuilder {
    private var values: [T] = []

    init(reserving count: Int) { values.reserveCapacity(count) }

    var count: Int { values.count }
    func append(_ value: Double) { values.append(T(fitting: value)) }
    func column() -> PLYColumn { T.column(values) }
}
