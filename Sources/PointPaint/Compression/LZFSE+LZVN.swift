extension LZFSE {
    /// Decodes the LZVN block (`bvxn`) of `frame` into `output`.
    ///
    /// LZVN is a run of byte-aligned opcodes, each followed by its literal bytes. By the first
    /// byte (bits from the highest; L literals, M match bytes, D distance):
    ///
    /// | first byte | bytes | meaning |
    /// |---|---|---|
    /// | `LLMMMDDD` (DDD 0–5) | 2 | L 0–3, M 3–10, D = DDD·256 + next byte |
    /// | `LLMMM111` | 3 | L 0–3, M 3–10, D = next two bytes (little-endian) |
    /// | `LLMMM110` | 1 | L 1–3, M 3–10, the previous D |
    /// | `101LLMMM` | 3 | L 0–3, M 3–34: the next two bytes (little-endian) hold 2 more low bits of M − 3, then D |
    /// | `1110LLLL` | 1 | L 1–15 literals alone; `11100000` + byte: L 16–271 |
    /// | `1111MMMM` | 1 | M 1–15 bytes from the previous D; `11110000` + byte: M 16–271 |
    /// | `00000110` | 8 | end of block (7 more bytes) |
    /// | `00001110`, `00010110` | 1 | nothing |
    ///
    /// Every other first byte (`00MMM110` for MMM 3–7, `0111xxxx`, `1101xxxx`) is undefined. The
    /// previous D starts each block unset, and the opcodes must end at the payload's end with the
    /// end-of-block opcode.
    ///
    /// - Complexity: O(payload size + decoded size).
    static func decodeLZVN(_ frame: Frame, in input: Input, into output: inout Output, streamStart: Int) throws {
        let source = input.base
        let end = frame.end
        let blockEnd = output.position + frame.decodedSize
        var out = output
        defer { output = out }
        var i = frame.payloadOffset
        var distance = 0  // none yet

        func cutOff(_ needed: Int) -> PointPaintError {
            input.error(.malformed, at: i, "an LZVN opcode needs \(needed) bytes, but the block has only \(end - i) left")
        }

        while true {
            guard i < end else {
                throw input.error(.malformed, at: frame.offset, "the LZVN block ends without its end-of-block opcode")
            }
            let op = Int(source.load(fromByteOffset: i, as: UInt8.self))
            var literalLength = 0, matchLength = 0, opLength = 1
            switch op {
            case 0xE0:
                guard end - i >= 2 else { throw cutOff(2) }
                literalLength = 16 + Int(source.load(fromByteOffset: i + 1, as: UInt8.self))
                opLength = 2
            case 0xE1 ... 0xEF:
                literalLength = op & 15
            case 0xF0:
                guard end - i >= 2 else { throw cutOff(2) }
                matchLength = 16 + Int(source.load(fromByteOffset: i + 1, as: UInt8.self))
                opLength = 2
            case 0xF1 ... 0xFF:
                matchLength = op & 15
            case 0xA0 ... 0xBF:
                literalLength = (op >> 3) & 3
                opLength = 3
                guard end - i >= 3 + literalLength else { throw cutOff(3 + literalLength) }
                let word = Int(UInt16(littleEndian: source.loadUnaligned(fromByteOffset: i + 1, as: UInt16.self)))
                matchLength = ((op & 7) << 2 | word & 3) + 3
                distance = word >> 2
            case 0x06:
                guard end - i >= 8 else { throw cutOff(8) }
                guard i + 8 == end else {
                    throw input.error(.malformed, at: i, "the LZVN block has \(end - i - 8) bytes after its end-of-block opcode")
                }
                guard out.position == blockEnd else {
                    throw input.error(.malformed, at: frame.offset,
                                      "the LZVN block decodes to \(out.position + frame.decodedSize - blockEnd) bytes, but its header declares \(frame.decodedSize)")
                }
                return
            case 0x0E, 0x16:
                i += 1
                continue
            case 0x1E, 0x26, 0x2E, 0x36, 0x3E, 0x70 ... 0x7F, 0xD0 ... 0xDF:
                throw input.error(.malformed, at: i, "undefined LZVN opcode 0x\(String(op, radix: 16, uppercase: true))")
            default:
                literalLength = op >> 6
                matchLength = ((op >> 3) & 7) + 3
                switch op & 7 {
                case 6:
                    break
                case 7:
                    opLength = 3
                    guard end - i >= 3 + literalLength else { throw cutOff(3 + literalLength) }
                    distance = Int(UInt16(littleEndian: source.loadUnaligned(fromByteOffset: i + 1, as: UInt16.self)))
                default:
                    opLength = 2
                    guard end - i >= 2 + literalLength else { throw cutOff(2 + literalLength) }
                    distance = (op & 7) << 8 | Int(source.load(fromByteOffset: i + 1, as: UInt8.self))
                }
            }
            guard end - i >= opLength + literalLength else { throw cutOff(opLength + literalLength) }
            guard literalLength + matchLength <= blockEnd - out.position else {
                throw input.error(.malformed, at: i,
                                  "an LZVN opcode writes \(literalLength + matchLength) bytes, past the block's declared \(frame.decodedSize)")
            }
            let literalStart = i + opLength
            if literalLength > 0 {  // most match opcodes carry none: no 16-byte store for nothing
                out.copyLiteral(from: source + literalStart, length: literalLength, readable: input.count - literalStart)
            }
            if matchLength > 0 {
                guard distance > 0 && distance <= out.position - streamStart else {
                    throw input.error(.malformed, at: i,
                                      "an LZVN opcode copies from \(distance) bytes back, but only \(out.position - streamStart) bytes precede it")
                }
                out.copyMatch(distance: distance, length: matchLength)
            }
            i = literalStart + literalLength
        }
    }
}
