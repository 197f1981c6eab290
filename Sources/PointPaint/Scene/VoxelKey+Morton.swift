/// The Morton (Z-order) code of a voxel key: the canonical order of every cloud written from a
/// store, and the sort key of store files.
///
/// The code interleaves the bits of the three biased 21-bit fields (`x + 2²⁰`, `y + 2²⁰`,
/// `z + 2²⁰`), x in bit 0, y in bit 1, z in bit 2, so it fits 63 bits and nearby cells tend to
/// have nearby codes: a range of codes is a compact region of space, which is what lets a merge
/// split its work by region (`StoreRegions`).
extension VoxelKey {
    /// Codes lie below this bound (63 bits).
    package static let mortonLimit: UInt64 = 1 << 63

    /// The key's Morton code.
    @inlinable
    package var mortonCode: UInt64 { VoxelKey.mortonCode(packed: packed) }

    /// The key with Morton code `code`, which must be below `mortonLimit`.
    package init(mortonCode code: UInt64) {
        precondition(code < VoxelKey.mortonLimit, "a Morton code of more than 63 bits")
        self.init(packed: VoxelKey.packed(mortonCode: code))
    }

    /// The Morton code of a packed key (`packed`).
    ///
    /// - Complexity: O(1); about 30 shifts and masks.
    @inlinable @inline(__always)
    package static func mortonCode(packed: Int64) -> UInt64 {
        let p = UInt64(bitPattern: packed)
        return Morton.spread(p) | Morton.spread(p >> 21) << 1 | Morton.spread(p >> 42) << 2
    }

    /// The packed key of Morton code `code`.
    @inlinable @inline(__always)
    package static func packed(mortonCode code: UInt64) -> Int64 {
        Int64(bitPattern: Morton.compact(code) | Morton.compact(code >> 1) << 21 | Morton.compact(code >> 2) << 42)
    }
}
