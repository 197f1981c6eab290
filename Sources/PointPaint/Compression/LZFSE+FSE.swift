// Finite-state entropy (tANS) decoding for LZFSE blocks: the backward bit reader, the decoding
// tables built from a block's frequencies, and the value codes of literal lengths, match lengths
// and distances.

extension LZFSE {
    /// States of each stream's decoder: its frequencies must add up to this.
    enum StateCount {
        static let literal = 1024
        static let l = 64
        static let m = 64
        static let d = 256
    }

    /// The 360 frequencies of a block, in stream order.
    enum FrequencyTable {
        static let lSymbols = 20
        static let mSymbols = 20
        static let dSymbols = 64
        static let literalSymbols = 256
        static let total = lSymbols + mSymbols + dSymbols + literalSymbols
    }

    /// How a value stream's symbol stands for a value: the value is `base` plus `bits` raw bits
    /// read after the state's bits.
    struct ValueCode: Sendable {
        var bits: UInt8
        var base: UInt32

        /// Codes for symbols taking `extraBits` raw bits each, bases counting up from 0 so that each
        /// symbol's values follow the previous symbol's.
        static func table(extraBits: [UInt8]) -> [ValueCode] {
            var base: UInt32 = 0
            return extraBits.map { bits in
                defer { base += 1 << bits }
                return ValueCode(bits: bits, base: base)
            }
        }

        /// Literal lengths: 0–15 as themselves, then 2, 3, 5 and 8 raw bits from 16, 20, 28 and 60
        /// (at most 315).
        static let literalLength = table(extraBits: Array(repeating: 0, count: 16) + [2, 3, 5, 8])
        /// Match lengths: 0–15 as themselves, then 3, 5, 8 and 11 raw bits from 16, 24, 56 and 312
        /// (at most 2359).
        static let matchLength = table(extraBits: Array(repeating: 0, count: 16) + [3, 5, 8, 11])
        /// Distances: symbol `s` takes `s / 4` raw bits, so 0, 1, 2, 3, 4, 6, 8, 10, 12, 16, …
        /// (at most 262,139). Distance 0 means "the previous distance again".
        static let distance = table(extraBits: (0 ..< 64).map { UInt8($0 / 4) })
    }

    /// One state of a value decoder: read `totalBits`, the high `totalBits − valueBits` of them
    /// plus `delta` are the next state, the low `valueBits` plus `base` the value.
    struct ValueEntry {
        var totalBits: UInt8
        var valueBits: UInt8
        var delta: UInt16
        var base: UInt32
    }

    /// Scratch memory for decoding LZFSE blocks, reused from block to block: the decoding tables,
    /// the frequencies and the block's literals (with slack for 16-byte copies past the last one,
    /// which each block clears after its literals).
    struct Tables {
        static let literalCapacity = Limit.literals + 64
        static let byteCount = (StateCount.l + StateCount.m + StateCount.d) * MemoryLayout<ValueEntry>.stride
            + StateCount.literal * 4 + FrequencyTable.total * 2 + literalCapacity

        let l: UnsafeMutablePointer<ValueEntry>
        let m: UnsafeMutablePointer<ValueEntry>
        let d: UnsafeMutablePointer<ValueEntry>
        /// Literal decoder states, one `UInt32` each: bits to read (low byte), symbol (next byte),
        /// delta (high half).
        let literal: UnsafeMutablePointer<UInt32>
        let frequencies: UnsafeMutablePointer<UInt16>
        let literals: UnsafeMutablePointer<UInt8>

        /// Lays the tables out in `raw`, `byteCount` bytes aligned to 16.
        init(_ raw: UnsafeMutableRawPointer) {
            var at = raw
            func take<T>(_ type: T.Type, _ count: Int) -> UnsafeMutablePointer<T> {
                defer { at += count * MemoryLayout<T>.stride }
                return at.bindMemory(to: type, capacity: count)
            }
            l = take(ValueEntry.self, StateCount.l)
            m = take(ValueEntry.self, StateCount.m)
            d = take(ValueEntry.self, StateCount.d)
            literal = take(UInt32.self, StateCount.literal)
            frequencies = take(UInt16.self, FrequencyTable.total)
            literals = take(UInt8.self, Tables.literalCapacity)
            assert(at - raw == Tables.byteCount)
        }
    }

    /// Calls `body(state, symbol, bits, delta)` for every decoder state that `frequencies` give,
    /// in order: symbol `s` owns `frequencies[s]` consecutive states. The state after one holding
    /// symbol `s` is `delta` plus the next `bits` bits; `frequencies` must add up to `stateCount`,
    /// which makes every next state smaller than `stateCount`.
    ///
    /// A symbol of frequency `f` reads `k` bits where `f << k` first reaches `stateCount`, on its
    /// first `(2 · stateCount >> k) − f` states, and `k − 1` bits on the rest.
    @inline(__always)
    static func forEachState(stateCount: Int, frequencies: UnsafePointer<UInt16>, symbols: Int,
                             _ body: (_ state: Int, _ symbol: Int, _ bits: Int, _ delta: Int) -> Void) {
        let stateBits = stateCount.trailingZeroBitCount
        var state = 0
        for symbol in 0 ..< symbols {
            let f = Int(frequencies[symbol])
            if f == 0 { continue }
            let k = stateBits - (Int.bitWidth - 1 - f.leadingZeroBitCount)
            let full = (2 * stateCount >> k) - f
            for j in 0 ..< f {
                if j < full {
                    body(state, symbol, k, ((f + j) << k) - stateCount)
                } else {
                    body(state, symbol, k - 1, (j - full) << (k - 1))
                }
                state += 1
            }
        }
        assert(state == stateCount)
    }

    /// The sum of `count` frequencies.
    static func sum(_ frequencies: UnsafePointer<UInt16>, _ count: Int) -> Int {
        var total = 0
        for i in 0 ..< count { total += Int(frequencies[i]) }
        return total
    }

    /// Fills the literal decoder from 256 frequencies adding up to 1024.
    static func fillLiteralTable(_ table: UnsafeMutablePointer<UInt32>, frequencies: UnsafePointer<UInt16>) {
        forEachState(stateCount: StateCount.literal, frequencies: frequencies, symbols: FrequencyTable.literalSymbols) { state, symbol, bits, delta in
            table[state] = UInt32(bits) | UInt32(symbol) << 8 | UInt32(delta) << 16
        }
    }

    /// Fills a value decoder of `stateCount` states from frequencies adding up to it.
    static func fillValueTable(_ table: UnsafeMutablePointer<ValueEntry>, stateCount: Int,
                               frequencies: UnsafePointer<UInt16>, codes: [ValueCode]) {
        forEachState(stateCount: stateCount, frequencies: frequencies, symbols: codes.count) { state, symbol, bits, delta in
            let code = codes[symbol]
            table[state] = ValueEntry(totalBits: UInt8(bits) + code.bits, valueBits: code.bits, delta: UInt16(delta), base: code.base)
        }
    }

    /// Decodes one literal and moves `state` on.
    @inline(__always)
    static func decodeLiteral(_ state: inout Int, _ table: UnsafePointer<UInt32>, _ reader: inout BitReader) -> UInt8 {
        assert(state >= 0 && state < StateCount.literal)
        let entry = table[state]
        state = Int(entry >> 16) + Int(truncatingIfNeeded: reader.pull(Int(entry & 0xFF)))
        return UInt8(truncatingIfNeeded: entry >> 8)
    }

    /// Decodes one value (a length or a distance) and moves `state` on.
    @inline(__always)
    static func decodeValue(_ state: inout Int, _ table: UnsafePointer<ValueEntry>, _ reader: inout BitReader) -> Int {
        let entry = table[state]
        let bits = reader.pull(Int(entry.totalBits))
        state = Int(entry.delta) + Int(truncatingIfNeeded: bits >> UInt64(entry.valueBits))
        return Int(entry.base) + Int(truncatingIfNeeded: bits & ((1 << UInt64(entry.valueBits)) - 1))
    }

    /// Reads an FSE stream from its end towards its start, as the encoder wrote it forwards: the
    /// last bits written come out first. Holds 56–63 bits after each `refill()`, enough for four
    /// literals (10 bits each) or one L, M, D triple (14 + 17 + 23 bits).
    struct BitReader {
        /// The unread bits, the next ones highest; nothing above `count`.
        private var bits: UInt64
        /// How many bits `bits` holds (at most 63).
        private var count: Int
        /// Offset of the lowest byte loaded so far.
        private var position: Int
        /// The lowest offset a refill may load from.
        private let limit: Int
        /// The last offset an 8-byte load may start at (the input's end less 8).
        private let lastWord: Int
        private let base: UnsafeRawPointer

        /// A reader of the stream ending at `end`, whose highest byte has `padding` (0–7) zero bits
        /// on top; refills never load below `limit`. Nil when fewer than 8 bytes (7 without
        /// padding) lie between `limit` and `end`, or when the padding bits are not zero.
        init?(_ input: Input, end: Int, limit: Int, padding: Int) {
            assert((0 ... 7).contains(padding) && limit >= 0 && end <= input.count)
            // Without padding only 7 bytes go in, so that the reader never holds 64 bits.
            let first = padding == 0 ? 7 : 8
            guard end - first >= limit, input.count >= 8 else { return nil }
            var word: UInt64 = 0
            for i in 0 ..< first {
                word |= UInt64(input.base.load(fromByteOffset: end - first + i, as: UInt8.self)) << UInt64(8 * i)
            }
            count = 8 * first - padding
            guard word >> UInt64(count) == 0 else { return nil }
            bits = word
            position = end - first
            self.limit = limit
            lastWord = input.count - 8
            base = input.base
        }

        /// Loads whole bytes until 56–63 bits are held; false when that would load below the limit
        /// (a stream shorter than its symbols need).
        @inline(__always)
        mutating func refill() -> Bool {
            let bytes = (63 - count) >> 3
            let start = position - bytes
            guard start >= limit else { return false }
            position = start
            // With no byte to load the word is masked away entirely; `min` keeps its load in bounds.
            let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: min(start, lastWord), as: UInt64.self))
            let n = UInt64(bytes << 3)
            bits = (bits &<< n) | (word & ((1 &<< n) &- 1))
            count += bytes << 3
            return true
        }

        /// Takes the next `n` bits (at most those held).
        @inline(__always)
        mutating func pull(_ n: Int) -> UInt64 {
            assert(n >= 0 && n <= count)
            count -= n
            let value = bits &>> UInt64(count)
            bits &= (1 &<< UInt64(count)) &- 1
            return value
        }
    }
}
