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
        return spread(p) | spread(p >> 21) << 1 | spread(p >> 42) << 2
    }

    /// The packed key of Morton code `code`.
    @inlinable @inline(__always)
    package static func packed(mortonCode code: UInt64) -> Int64 {
        Int64(bitPattern: compact(code) | compact(code >> 1) << 21 | compact(code >> 2) << 42)
    }

    /// The low 21 bits of `v` moved to every third bit: bit i to bit 3i.
    @inlinable @inline(__always)
    static func spread(_ v: UInt64) -> UInt64 {
        var x = v & 0x1F_FFFF
        x = (x | x << 32) & 0x001F_0000_0000_FFFF
        x = (x | x << 16) & 0x001F_0000_FF00_00FF
        x = (x | x << 8) & 0x100F_00F0_0F00_F00F
        x = (x | x << 4) & 0x10C3_0C30_C30C_30C3
        x = (x | x << 2) & 0x1249_2492_4924_9249
        return x
    }

    /// The inverse of `spread`: every third bit of `v` (bits 0, 3, 6, …) packed into 21 bits.
    @inlinable @inline(__always)
    static func compact(_ v: UInt64) -> UInt64 {
        var x = v & 0x1249_2492_4924_9249
        x = (x | x >> 2) & 0x10C3_0C30_C30C_30C3
        x = (x | x >> 4) & 0x100F_00F0_0F00_F00F
        x = (x | x >> 8) & 0x001F_0000_FF00_00FF
        x = (x | x >> 16) & 0x001F_0000_0000_FFFF
        x = (x | x >> 32) & 0x1F_FFFF
        return x
    }
}
