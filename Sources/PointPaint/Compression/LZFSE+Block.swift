extension LZFSE {
    /// Decodes the LZFSE block (`bvx1` or `bvx2`) at `offset` into `output`.
    ///
    /// The payload is two FSE streams, each read from its end: the literals (four interleaved
    /// decoders over one table, four literals per refill), then the (L, M, D) triples (three
    /// decoders). Each triple appends L literals, then M bytes copied from D bytes back.
    ///
    /// - Complexity: O(literal count + decoded size).
    static func decodeCompressed(_ header: CompressedHeader, at offset: Int, in input: Input, into output: inout Output,
                                 streamStart: Int, tables: Tables) throws {
        let name = header.packed ? "LZFSE block 'bvx2'" : "LZFSE block 'bvx1'"
        let blockEnd = output.position + header.decodedSize
        try readFrequencies(header, at: offset, in: input, into: tables.frequencies)
        try buildTables(header, at: offset, name: name, in: input, tables: tables)

        let literalStart = offset + header.headerSize
        let lmdStart = literalStart + header.literalPayloadSize
        let lmdEnd = lmdStart + header.lmdPayloadSize

        // Literals. The stream may be shorter than the 8 bytes of its first load: it then reaches
        // into this block's header, as Apple's encoder expects (those bits are never used).
        if header.literalCount > 0 {
            guard var reader = BitReader(input, end: lmdStart, limit: offset, padding: header.literalPadding) else {
                throw input.error(.malformed, at: literalStart, "the literal stream of the \(name) at byte offset \(offset) has stray bits above its end")
            }
            let table = UnsafePointer(tables.literal)
            let literals = tables.literals
            var (s0, s1, s2, s3) = header.literalStates
            var i = 0
            while i < header.literalCount {
                guard reader.refill() else {
                    throw input.error(.malformed, at: literalStart,
                                      "the literal stream of the \(name) at byte offset \(offset) ends after \(i) of its \(header.literalCount) literals")
                }
                literals[i] = decodeLiteral(&s0, table, &reader)
                literals[i + 1] = decodeLiteral(&s1, table, &reader)
                literals[i + 2] = decodeLiteral(&s2, table, &reader)
                literals[i + 3] = decodeLiteral(&s3, table, &reader)
                i += 4
            }
        }
        // Wide copies read up to 15 bytes past the literals they take.
        (tables.literals + ((header.literalCount + 3) & ~3)).initialize(repeating: 0, count: 16)

        if header.matchCount > 0 {
            guard var reader = BitReader(input, end: lmdEnd, limit: lmdStart, padding: header.lmdPadding) else {
                throw input.error(.malformed, at: lmdStart,
                                  "the match stream of the \(name) at byte offset \(offset) is shorter than 8 bytes or has stray bits above its end")
            }
            var out = output
            defer { output = out }
            let lTable = UnsafePointer(tables.l), mTable = UnsafePointer(tables.m), dTable = UnsafePointer(tables.d)
            let literals = UnsafeRawPointer(tables.literals)
            let literalCount = header.literalCount
            var l = header.lState, m = header.mState, d = header.dState
            var literal = 0
            var distance = 0  // none yet: a first D of 0 ("the previous one") is refused
            for index in 0 ..< header.matchCount {
                guard reader.refill() else {
                    throw input.error(.malformed, at: lmdStart,
                                      "the match stream of the \(name) at byte offset \(offset) ends after \(index) of its \(header.matchCount) matches")
                }
                let literalLength = decodeValue(&l, lTable, &reader)
                let matchLength = decodeValue(&m, mTable, &reader)
                let newDistance = decodeValue(&d, dTable, &reader)
                if newDistance != 0 { distance = newDistance }
                guard literalLength <= literalCount - literal else {
                    throw input.error(.malformed, at: offset,
                                      "match \(index) of the \(name) takes \(literalLength) literals, but only \(literalCount - literal) of its \(literalCount) are left")
                }
                guard literalLength + matchLength <= blockEnd - out.position else {
                    throw input.error(.malformed, at: offset,
                                      "match \(index) of the \(name) writes \(literalLength + matchLength) bytes, past the block's declared \(header.decodedSize)")
                }
                // Checked even for a match of length 0, as the reference decoder does (Apple's
                // encoder gives literal-only triples the distance 1).
                guard distance > 0 && distance <= out.position + literalLength - streamStart else {
                    throw input.error(.malformed, at: offset,
                                      "match \(index) of the \(name) copies from \(distance) bytes back, but only \(out.position + literalLength - streamStart) bytes precede it")
                }
                out.copyLiteral(from: literals + literal, length: literalLength, readable: Tables.literalCapacity - literal)
                literal += literalLength
                out.copyMatch(distance: distance, length: matchLength)
            }
        }

        guard output.position == blockEnd else {
            throw input.error(.malformed, at: offset,
                              "the \(name) decodes to \(output.position + header.decodedSize - blockEnd) bytes, but its header declares \(header.decodedSize)")
        }
    }

    /// Checks that each frequency table adds up to its state count (or is all zero for a stream
    /// the block does not use) and fills the decoders.
    static func buildTables(_ header: CompressedHeader, at offset: Int, name: String, in input: Input, tables: Tables) throws {
        let f = UnsafePointer(tables.frequencies)
        let l = f, m = l + FrequencyTable.lSymbols, d = m + FrequencyTable.mSymbols, literal = d + FrequencyTable.dSymbols
        // Where each table sits, for the error place: a bvx2 header codes them all together.
        func place(_ table: UnsafePointer<UInt16>) -> Int {
            header.packed ? offset + Limit.packedFixedSize : offset + 50 + 2 * (table - f)
        }
        for (table, symbols, states, what, used) in [
            (literal, FrequencyTable.literalSymbols, StateCount.literal, "literal", header.literalCount > 0),
            (l, FrequencyTable.lSymbols, StateCount.l, "L", header.matchCount > 0),
            (m, FrequencyTable.mSymbols, StateCount.m, "M", header.matchCount > 0),
            (d, FrequencyTable.dSymbols, StateCount.d, "D", header.matchCount > 0),
        ] {
            let total = sum(table, symbols)
            guard total == states || (total == 0 && !used) else {
                throw input.error(.malformed, at: place(table),
                                  "the \(what) frequencies of the \(name) add up to \(total); expected \(states)")
            }
        }
        if header.literalCount > 0 { fillLiteralTable(tables.literal, frequencies: literal) }
        if header.matchCount > 0 {
            fillValueTable(tables.l, stateCount: StateCount.l, frequencies: l, codes: ValueCode.literalLength)
            fillValueTable(tables.m, stateCount: StateCount.m, frequencies: m, codes: ValueCode.matchLength)
            fillValueTable(tables.d, stateCount: StateCount.d, frequencies: d, codes: ValueCode.distance)
        }
    }
}
