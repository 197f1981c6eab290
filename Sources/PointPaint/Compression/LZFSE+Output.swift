extension LZFSE {
    /// The decoded bytes written so far: a cursor over the output buffer that copies literals and
    /// matches with wide loads and stores.
    ///
    /// Callers check every length and distance against the block before calling (and throw when
    /// they do not fit); the copies only assert. Away from the end of the buffer the copies run in
    /// 8- or 16-byte steps and may write up to 15 bytes past the copy, which later copies overwrite;
    /// within 16 bytes of the end they go byte by byte.
    struct Output {
        let base: UnsafeMutableRawPointer
        /// Bytes in the buffer (the whole decoded size).
        let count: Int
        /// Bytes decoded so far.
        var position = 0

        init(base: UnsafeMutableRawPointer, count: Int) {
            self.base = base
            self.count = count
        }

        /// Appends `length` bytes from `source`, of which `readable` bytes may be read (at least
        /// `length`; 16 more allow the wide copy).
        @inline(__always)
        mutating func copyLiteral(from source: UnsafeRawPointer, length: Int, readable: Int) {
            assert(length >= 0 && length <= readable && length <= count - position)
            let target = base + position
            if length + 16 <= readable && length + 16 <= count - position {
                var i = 0
                repeat {
                    target.storeBytes(of: source.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self),
                                      toByteOffset: i, as: SIMD16<UInt8>.self)
                    i += 16
                } while i < length
            } else if length > 0 {
                target.copyMemory(from: source, byteCount: length)
            }
            position += length
        }

        /// Appends `length` bytes from `source` (a raw block) with one `memcpy`.
        mutating func copyRaw(from source: UnsafeRawPointer, length: Int) {
            assert(length >= 0 && length <= count - position)
            if length > 0 { (base + position).copyMemory(from: source, byteCount: length) }
            position += length
        }

        /// Appends `length` bytes copied from `distance` bytes back, as a byte-by-byte copy would:
        /// a distance shorter than the length repeats the last `distance` bytes.
        @inline(__always)
        mutating func copyMatch(distance: Int, length: Int) {
            assert(distance >= 1 && distance <= position && length >= 0 && length <= count - position)
            let target = base + position
            if length + 16 <= count - position {
                if distance >= 16 {
                    // Each 16-byte step reads bytes at least 16 back: all written before it.
                    var i = 0
                    repeat {
                        let chunk = target.loadUnaligned(fromByteOffset: i - distance, as: SIMD16<UInt8>.self)
                        target.storeBytes(of: chunk, toByteOffset: i, as: SIMD16<UInt8>.self)
                        i += 16
                    } while i < length
                } else if distance >= 8 {
                    var i = 0
                    repeat {
                        let chunk = target.loadUnaligned(fromByteOffset: i - distance, as: UInt64.self)
                        target.storeBytes(of: chunk, toByteOffset: i, as: UInt64.self)
                        i += 8
                    } while i < length
                } else {
                    // The first 8 bytes one at a time; from then on the output repeats with period
                    // `distance`, so 8-byte steps may read from `step` back, the smallest multiple of
                    // the distance that is at least 8 (8, 8, 9, 8, 10, 12, 14 for distances 1–7:
                    // the bytes of the constant, indexed by distance).
                    for i in 0 ..< 8 { target.storeBytes(of: target.load(fromByteOffset: i - distance, as: UInt8.self), toByteOffset: i, as: UInt8.self) }
                    let step = Int(truncatingIfNeeded: (0x0E0C_0A08_0908_0808 as UInt64) >> (8 * UInt64(distance))) & 0xFF
                    var i = 8
                    while i < length {
                        let chunk = target.loadUnaligned(fromByteOffset: i - step, as: UInt64.self)
                        target.storeBytes(of: chunk, toByteOffset: i, as: UInt64.self)
                        i += 8
                    }
                }
            } else {
                for i in 0 ..< length {
                    target.storeBytes(of: target.load(fromByteOffset: i - distance, as: UInt8.self), toByteOffset: i, as: UInt8.self)
                }
            }
            position += length
        }
    }
}
