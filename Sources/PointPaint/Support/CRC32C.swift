import CPointPaintKernels

/// CRC-32C (Castagnoli), the checksum of store files: the SSE4.2 `crc32` instruction where the
/// CPU has it (chosen once), else slicing-by-8 tables. Both give the same value
/// (`pointpaint_crc32c_c` is the reference).
package enum CRC32C {
    /// Whether the hardware instruction is used.
    package static let usesHardware: Bool = {
        #if arch(x86_64)
        pointpaint_cpu_has_sse42() != 0
        #else
        false
        #endif
    }()

    /// The checksum of `bytes`, continuing from `crc` (0 to start): `checksum(b, continuing:
    /// checksum(a))` is the checksum of a followed by b.
    ///
    /// - Complexity: O(bytes.count).
    @inline(__always)
    package static func checksum(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return crc }
        #if arch(x86_64)
        if usesHardware { return pointpaint_crc32c_sse42(crc, base, bytes.count) }
        #endif
        return pointpaint_crc32c_c(crc, base, bytes.count)
    }

    /// The checksum of `bytes` with the table reference, whatever the CPU (for tests).
    package static func referenceChecksum(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return crc }
        return pointpaint_crc32c_c(crc, base, bytes.count)
    }
}
