/// Stores binary values one after another into memory sized in advance, little- or big-endian:
/// the writing counterpart of `ByteCursor`. Every store is checked (in debug builds) to stay
/// inside the memory it was given.
package struct ByteStore {
    private let start: UnsafeMutableRawPointer
    private let end: UnsafeMutableRawPointer
    private var pointer: UnsafeMutableRawPointer
    private let bigEndian: Bool

    /// A store at the start of `buffer`, writing multi-byte values big-endian when `bigEndian`.
    package init(_ buffer: UnsafeMutableRawBufferPointer, bigEndian: Bool) {
        precondition(buffer.baseAddress != nil, "storing into no memory")
        start = buffer.baseAddress!
        end = start + buffer.count
        pointer = start
        self.bigEndian = bigEndian
    }

    /// Bytes stored so far.
    package var count: Int { pointer - start }

    @inline(__always)
    private mutating func store<T: FixedWidthInteger>(_ v: T) {
        assert(end - pointer >= MemoryLayout<T>.size, "storing past the end of the memory")
        pointer.storeBytes(of: bigEndian ? v.bigEndian : v.littleEndian, as: T.self)
        pointer += MemoryLayout<T>.size
    }

    /// Stores one byte.
    @inline(__always) package mutating func byte(_ v: UInt8) { store(v) }

    /// Stores a 32-bit integer.
    @inline(__always) package mutating func int32(_ v: Int32) { store(v) }

    /// Stores a float's bits.
    @inline(__always) package mutating func float(_ v: Float) { store(v.bitPattern) }

    /// Stores a double's bits.
    @inline(__always) package mutating func double(_ v: Double) { store(v.bitPattern) }
}
