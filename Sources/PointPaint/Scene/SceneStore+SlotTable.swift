/// The hash table of `SceneStore`: the index over a store's records (`Storage`) and over each
/// part of a partitioned batch (`SceneStore+Partition.swift`).
extension SceneStore {
    /// The hash of a packed voxel key (Fibonacci hashing: the top bits are the well-mixed ones).
    @inline(__always)
    static func hash(_ key: Int64) -> UInt64 { UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15 }

    /// An open-addressing index over records held elsewhere (`Record`, found by key): 2^`bits`
    /// slots of `Raw`'s width, linear probing from the top `bits` bits of the hash it is given for
    /// a key. A store's table is given `SceneStore.hash`; the table of a part of a partitioned
    /// batch that hash shifted left past the part bits, which all the part's keys share (its
    /// 32-bit slots keep no fingerprint for the shift to lose).
    ///
    /// A view: its owner allocates the slots, keeps the load below 1 (a probe ends at an empty
    /// slot), makes a larger table to grow, and frees them.
    @usableFromInline struct SlotTable<Raw: FixedWidthInteger & UnsignedInteger> {
        /// 2^`bits` of them.
        let slots: UnsafeMutablePointer<Slot<Raw>>
        /// log2 of the slot count.
        let bits: Int

        /// A table over `slots` (room for 2^`bits`, initialised or not), all of them emptied.
        init(emptying slots: UnsafeMutablePointer<Slot<Raw>>, bits: Int) {
            precondition(bits > 0 && bits < 64, "a table of 2 to 2⁶³ slots")
            self.slots = slots
            self.bits = bits
            slots.initialize(repeating: .empty, count: 1 << bits)
        }

        /// A copy of `other` in `slots` (room for as many).
        init(copying other: SlotTable, into slots: UnsafeMutablePointer<Slot<Raw>>) {
            self.slots = slots
            bits = other.bits
            slots.initialize(from: other.slots, count: other.capacity)
        }

        /// The number of slots.
        var capacity: Int { 1 &<< bits }

        /// `capacity` − 1, for positions to wrap around.
        private var mask: Int { capacity &- 1 }

        /// The position a probe for `hash` starts at: its top `bits` bits.
        @inline(__always)
        func position(_ hash: UInt64) -> Int {
            Int(truncatingIfNeeded: hash &>> UInt64(64 &- bits))
        }

        /// Linear probing from `hash`'s position: the first of the `count` records whose slot
        /// matches `hash` and that `isKey` accepts, or the first empty position.
        @inline(__always)
        func probe(hash: UInt64, count: Int, isKey: (Int) -> Bool) -> Probe {
            var pos = position(hash)
            while true {
                let slot = slots[pos]
                if slot.isEmpty { return .vacant(position: pos) }
                if slot.matches(hash: hash) {
                    let i = slot.index(below: count)
                    if isKey(i) { return .found(index: i) }
                }
                pos = (pos &+ 1) & mask
            }
        }

        /// Where a probe for `key`, which hashes to `hash`, ends among `records`.
        @inline(__always)
        func probe(_ key: Int64, hash: UInt64, in records: UnsafeBufferPointer<Record>) -> Probe {
            probe(hash: hash, count: records.count, isKey: { records[$0].key == key })
        }

        /// The index of the record with `key`, which hashes to `hash`, among `records`, or nil.
        @inline(__always)
        func find(_ key: Int64, hash: UInt64, in records: UnsafeBufferPointer<Record>) -> Int? {
            guard case .found(let i) = probe(key, hash: hash, in: records) else { return nil }
            return i
        }

        /// Record `index`, whose key hashes to `hash`, into the slot at `position`, where a probe
        /// for its key ended vacant.
        @inline(__always)
        func place(_ index: Int, hash: UInt64, at position: Int) {
            slots[position] = Slot(index: index, hash: hash)
        }

        /// Record `index`, whose key hashes to `hash` and is in no other slot, into the first empty
        /// slot of its probe; returns that slot's position. The table holds records below `index`.
        @inline(__always) @discardableResult
        func insert(_ index: Int, hash: UInt64) -> Int {
            // Keys are distinct: only the empty slot is wanted.
            guard case .vacant(let pos) = probe(hash: hash, count: index, isKey: { _ in false }) else {
                preconditionFailure("a probe that accepts no record found one")
            }
            place(index, hash: hash, at: pos)
            return pos
        }

        /// Empties the slot at `position`.
        @inline(__always)
        func empty(at position: Int) { slots[position] = .empty }
    }

    /// A slot of an open-addressing table over records, in `Raw`'s bits: 0 when empty, else
    /// the record's index plus one in the low 32 bits and, above them, the top bits of its key's
    /// hash (a fingerprint that spares most record loads on a probe; a 32-bit slot has none).
    /// Every slot is made and read here, with asserts on the index.
    @usableFromInline struct Slot<Raw: FixedWidthInteger & UnsignedInteger> {
        /// The bits as stored.
        @usableFromInline let raw: Raw

        /// An empty slot.
        static var empty: Slot { Slot(raw: 0) }

        @usableFromInline init(raw: Raw) { self.raw = raw }

        /// The slot of record `index` whose key hashes to `hash`.
        @inline(__always)
        init(index: Int, hash: UInt64) {
            assert(index >= 0 && index < Int(UInt32.max), "record index beyond a slot's 32 bits")
            let fingerprint = Raw.bitWidth > 32 ? Raw(truncatingIfNeeded: hash >> 32) << 32 : 0
            raw = fingerprint | Raw(truncatingIfNeeded: index + 1)
        }

        /// Whether no record is here.
        @inline(__always) var isEmpty: Bool { raw == 0 }

        /// Whether the record here may have a key with `hash` (always, in a slot without a
        /// fingerprint).
        @inline(__always)
        func matches(hash: UInt64) -> Bool { Raw.bitWidth <= 32 || UInt64(truncatingIfNeeded: raw) >> 32 == hash >> 32 }

        /// The index of the record here, which must be one of the `count` records.
        @inline(__always)
        func index(below count: Int) -> Int {
            let i = Int(truncatingIfNeeded: UInt64(truncatingIfNeeded: raw) & 0xFFFF_FFFF) - 1
            assert(i >= 0 && i < count, "slot decodes to a record index outside the table's records")
            return i
        }
    }

    /// Where a probe for a key ended.
    @usableFromInline enum Probe {
        /// At the key's record.
        case found(index: Int)
        /// At an empty slot, where the key goes.
        case vacant(position: Int)
    }
}
