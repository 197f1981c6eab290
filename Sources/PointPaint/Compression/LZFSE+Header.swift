extension LZFSE {
    /// Limits of an LZFSE block, fixed by the format.
    enum Limit {
        /// Literal bytes in one block.
        static let literals = 40_000
        /// (literal length, match length, distance) triples in one block.
        static let matches = 10_000
        /// The longest match one triple codes (`LZFSE+FSE.swift`: base 312 plus 11 extra bits).
        static let matchLength = 2359
        /// Bytes of a `bvx1` header: 770 of fields, padded to a multiple of 4 as the reference
        /// implementation's C struct is (its decoder skips `sizeof` the struct).
        static let plainHeaderSize = 772
        /// Bytes of a `bvx2` header before its frequency tables.
        static let packedFixedSize = 32
        /// The largest `bvx2` header: every one of the 360 frequencies in its longest (14-bit) code.
        static let packedHeaderSize = 32 + (360 * 14 + 7) / 8
    }

    /// The header of an LZFSE block (`bvx1` or `bvx2`), without its frequency tables.
    struct CompressedHeader {
        /// `bvx2` (frequency tables in a prefix code) rather than `bvx1` (plain).
        var packed: Bool
        /// Bytes from the magic to the literal payload.
        var headerSize: Int
        /// Bytes the block decodes to.
        var decodedSize: Int
        /// Literal bytes the literal stream holds (a multiple of 4 from Apple's encoder, which pads
        /// with zeros for its four interleaved states).
        var literalCount: Int
        /// (L, M, D) triples.
        var matchCount: Int
        /// Bytes of the literal stream, then of the triple stream.
        var literalPayloadSize: Int
        var lmdPayloadSize: Int
        /// Zero bits padding the last (highest) byte of each stream, 0–7.
        var literalPadding: Int
        var lmdPadding: Int
        /// The decoders' initial states: the encoder's final ones.
        var literalStates: (Int, Int, Int, Int)
        var lState: Int
        var mState: Int
        var dState: Int
    }

    /// Reads and checks the fixed fields of the `bvx1` or `bvx2` header at `offset`: counts within
    /// the format's limits, states within their tables, payloads within the input, and a decoded
    /// size the block's literals and matches could produce.
    static func readCompressedHeader(at offset: Int, packed: Bool, in input: Input) throws -> CompressedHeader {
        let name = packed ? "LZFSE block 'bvx2'" : "LZFSE block 'bvx1'"
        var header: CompressedHeader
        /// Offsets of the fields checked below, for the error places.
        let literalCountField, matchCountField, payloadField, statesField, lStateField: Int
        if packed {
            try requireHeader(Limit.packedFixedSize, "LZFSE 'bvx2'", at: offset, in: input)
            // Three little-endian 64-bit words of bit fields (low bit first):
            //   [0] literal count:20, literal payload bytes:20, match count:20, literal padding bits:3 (stored as 7 − padding)
            //   [1] four literal states:10 each, triple payload bytes:20, triple padding bits:3 (7 − padding)
            //   [2] header size:32, L state:10, M state:10, D state:10
            let v0 = input.u64(offset + 8), v1 = input.u64(offset + 16), v2 = input.u64(offset + 24)
            func field(_ word: UInt64, _ shift: UInt64, _ width: UInt64) -> Int { Int(truncatingIfNeeded: (word >> shift) & ((1 << width) - 1)) }
            header = CompressedHeader(
                packed: true, headerSize: field(v2, 0, 32), decodedSize: Int(input.u32(offset + 4)),
                literalCount: field(v0, 0, 20), matchCount: field(v0, 40, 20),
                literalPayloadSize: field(v0, 20, 20), lmdPayloadSize: field(v1, 40, 20),
                literalPadding: 7 - field(v0, 60, 3), lmdPadding: 7 - field(v1, 60, 3),
                literalStates: (field(v1, 0, 10), field(v1, 10, 10), field(v1, 20, 10), field(v1, 30, 10)),
                lState: field(v2, 32, 10), mState: field(v2, 42, 10), dState: field(v2, 52, 10))
            literalCountField = offset + 8
            matchCountField = offset + 8
            payloadField = offset + 8
            statesField = offset + 16
            lStateField = offset + 24
            let left = input.count - offset
            guard header.headerSize >= Limit.packedFixedSize && header.headerSize <= Limit.packedHeaderSize else {
                throw input.error(.malformed, at: offset + 24,
                                  "\(name) declares a header of \(header.headerSize) bytes; expected \(Limit.packedFixedSize)–\(Limit.packedHeaderSize)")
            }
            guard header.headerSize <= left else {
                throw input.error(.tooLarge, at: offset + 24,
                                  "\(name) declares a header of \(header.headerSize) bytes, but only \(left) are left")
            }
        } else {
            try requireHeader(Limit.plainHeaderSize, "LZFSE 'bvx1'", at: offset, in: input)
            // Little-endian fields: magic, decoded size, payload bytes, literal count, match count,
            // literal payload bytes, triple payload bytes (UInt32 each); literal bits (Int32, the
            // encoder's final bit count: −padding); four literal states (UInt16); triple bits
            // (Int32); L, M, D states (UInt16); then the frequency tables (UInt16 each).
            func u16(_ at: Int) -> Int { Int(UInt16(littleEndian: input.base.loadUnaligned(fromByteOffset: offset + at, as: UInt16.self))) }
            func i32(_ at: Int) -> Int { Int(Int32(bitPattern: input.u32(offset + at))) }
            header = CompressedHeader(
                packed: false, headerSize: Limit.plainHeaderSize, decodedSize: Int(input.u32(offset + 4)),
                literalCount: Int(input.u32(offset + 12)), matchCount: Int(input.u32(offset + 16)),
                literalPayloadSize: Int(input.u32(offset + 20)), lmdPayloadSize: Int(input.u32(offset + 24)),
                literalPadding: -i32(28), lmdPadding: -i32(40),
                literalStates: (u16(32), u16(34), u16(36), u16(38)),
                lState: u16(44), mState: u16(46), dState: u16(48))
            literalCountField = offset + 12
            matchCountField = offset + 16
            payloadField = offset + 20
            statesField = offset + 32
            lStateField = offset + 44
            for (at, padding) in [(28, header.literalPadding), (40, header.lmdPadding)] where !(0 ... 7).contains(padding) {
                throw input.error(.malformed, at: offset + at, "\(name) declares a final bit count of \(-padding); expected −7…0")
            }
            let payload = Int(input.u32(offset + 8))
            guard payload == header.literalPayloadSize + header.lmdPayloadSize else {
                throw input.error(.malformed, at: offset + 8,
                                  "\(name) declares \(payload) payload bytes, but its literal and triple payloads add up to \(header.literalPayloadSize + header.lmdPayloadSize)")
            }
        }

        guard header.literalCount <= Limit.literals else {
            throw input.error(.tooLarge, at: literalCountField,
                              "\(name) declares \(header.literalCount) literals; a block holds at most \(Limit.literals)")
        }
        guard header.matchCount <= Limit.matches else {
            throw input.error(.tooLarge, at: matchCountField,
                              "\(name) declares \(header.matchCount) matches; a block holds at most \(Limit.matches)")
        }
        let s = header.literalStates
        for state in [s.0, s.1, s.2, s.3] where state >= StateCount.literal {
            throw input.error(.malformed, at: statesField, "\(name) starts a literal state at \(state); expected 0–\(StateCount.literal - 1)")
        }
        for (name2, state, count) in [("L", header.lState, StateCount.l), ("M", header.mState, StateCount.m),
                                      ("D", header.dState, StateCount.d)] where state >= count {
            throw input.error(.malformed, at: lStateField, "\(name) starts its \(name2) state at \(state); expected 0–\(count - 1)")
        }
        let left = input.count - offset - header.headerSize
        guard header.literalPayloadSize <= left && header.lmdPayloadSize <= left - header.literalPayloadSize else {
            throw input.error(.tooLarge, at: payloadField,
                              "\(name) declares \(header.literalPayloadSize) + \(header.lmdPayloadSize) payload bytes, but only \(left) follow its header")
        }
        let most = header.literalCount + header.matchCount * Limit.matchLength
        guard header.decodedSize <= most else {
            throw input.error(.tooLarge, at: offset + 4,
                              "\(name) declares \(header.decodedSize) decoded bytes, more than its \(header.literalCount) literals and \(header.matchCount) matches can produce (at most \(most))")
        }
        return header
    }

    /// Reads the block's 360 frequencies into `frequencies`, in stream order: L (20), M (20),
    /// D (64), literal (256).
    ///
    /// A `bvx2` header codes each one in a prefix code read from the low bits up:
    /// `…0` (2 bits) is 0 or 1 from the bit above it; `…01` (3 bits) is 2 or 3; `…011` (5 bits) is
    /// 4–7 from its top two bits; `…0111` (8 bits) is 8–23 from its top four; `…1111` (14 bits) is
    /// 24–1047 from its top ten. The codes must end within the header's last byte. A header of only
    /// its fixed part leaves every frequency zero.
    static func readFrequencies(_ header: CompressedHeader, at offset: Int, in input: Input,
                                into frequencies: UnsafeMutablePointer<UInt16>) throws {
        let count = FrequencyTable.total
        if !header.packed {
            for i in 0 ..< count {
                frequencies[i] = UInt16(littleEndian: input.base.loadUnaligned(fromByteOffset: offset + 50 + 2 * i, as: UInt16.self))
            }
            return
        }
        var position = offset + Limit.packedFixedSize
        let end = offset + header.headerSize
        if position == end {
            frequencies.update(repeating: 0, count: count)
            return
        }
        var bits: UInt32 = 0
        var available = 0
        for i in 0 ..< count {
            while position < end && available <= 24 {
                bits |= UInt32(input.base.load(fromByteOffset: position, as: UInt8.self)) << available
                available += 8
                position += 1
            }
            let (value, length): (UInt32, Int) =
                if bits & 1 == 0 { ((bits >> 1) & 1, 2) }
                else if bits & 2 == 0 { (2 + ((bits >> 2) & 1), 3) }
                else if bits & 4 == 0 { (4 + ((bits >> 3) & 3), 5) }
                else if bits & 8 == 0 { (8 + ((bits >> 4) & 15), 8) }
                else { (24 + ((bits >> 4) & 1023), 14) }
            guard length <= available else {
                throw input.error(.malformed, at: offset + Limit.packedFixedSize,
                                  "the frequency tables of the LZFSE block 'bvx2' end after \(i) of their \(count) values")
            }
            frequencies[i] = UInt16(value)
            bits >>= UInt32(length)
            available -= length
        }
        guard position == end && available < 8 else {
            throw input.error(.malformed, at: offset + Limit.packedFixedSize,
                              "the frequency tables of the LZFSE block 'bvx2' end \(end - position + available / 8) bytes before its header does")
        }
    }
}
