/// Bit interleaving for Morton (Z-order) codes of three 21-bit coordinates: `spread` moves a
/// coordinate's bits to every third bit, so `spread(x) | spread(y) << 1 | spread(z) << 2` is the
/// code (x in the lowest bit of each triple), and `compact` takes one coordinate back out. The
/// store's canonical order (`VoxelKey.mortonCode`) and the viewer's octree keys
/// (`OctreeCube.key`) both use these.
@usableFromInline
package enum Morton {
    /// The low 21 bits of `v` moved to every third bit: bit i to bit 3i.
    ///
    /// - Complexity: O(1); five shifts and masks.
    @inlinable @inline(__always)
    package static func spread(_ v: UInt64) -> UInt64 {
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
    package static func compact(_ v: UInt64) -> UInt64 {
        var x = v & 0x1249_2492_4924_9249
        x = (x | x >> 2) & 0x10C3_0C30_C30C_30C3
        x = (x | x >> 4) & 0x100F_00F0_0F00_F00F
        x = (x | x >> 8) & 0x001F_0000_FF00_00FF
        x = (x | x >> 16) & 0x001F_0000_0000_FFFF
        x = (x | x >> 32) & 0x1F_FFFF
        return x
    }
}
