import Testing
@testable import PointPaint

/// The cursor every parser reads through: tokens, line ends, numbers and binary scalars.
@Suite struct ByteCursorTests {
    /// Runs `body` on a cursor over `text`'s bytes.
    private func withCursor<R>(_ text: [UInt8], _ body: (inout ByteCursor) -> R) -> R {
        text.withUnsafeBytes { raw in
            var cursor = ByteCursor(raw)
            return body(&cursor)
        }
    }

    @Test func tokensAndLinesEndingInLFCRLFOrCR() {
        let lines = withCursor(Array("\u{FEFF}a b\t c\r\nd\re\n\nf".utf8)) { cursor -> [[String]] in
            cursor.skipByteOrderMark()
            var lines: [[String]] = []
            while !cursor.isAtEnd {
                var words: [String] = []
                while let token = cursor.nextToken() { words.append(String(decoding: token, as: UTF8.self)) }
                lines.append(words)
                cursor.endLine()
            }
            #expect(cursor.line == 5, "the last line has no line end to count")
            return lines
        }
        #expect(lines == [["a", "b", "c"], ["d"], ["e"], [], ["f"]])
    }

    @Test func headerLinesEndInOneTerminator() {
        withCursor(Array("ply\r\nformat\r\nrest".utf8)) { cursor in
            #expect(cursor.nextLine(terminatedBy: 0x0A).map { String(decoding: $0, as: UTF8.self) } == "ply")
            #expect(cursor.nextLine(terminatedBy: 0x0A).map { String(decoding: $0, as: UTF8.self) } == "format")
            #expect(cursor.nextLine(terminatedBy: 0x0A) == nil, "no terminator after the last line")
            #expect(cursor.position == 13 && cursor.line == 3)
        }
    }

    @Test(arguments: [("42", false, UInt64(42), false), ("-7", true, 7, false), ("+0", false, 0, false),
                      ("18446744073709551615", false, .max, false), ("18446744073709551616", false, 0, true)])
    func decimalIntegers(text: String, negative: Bool, magnitude: UInt64, overflow: Bool) throws {
        let value = try #require(Array(text.utf8).withUnsafeBytes { ByteCursor.decimalInteger($0) })
        #expect(value.negative == negative && value.overflow == overflow)
        if !overflow { #expect(value.magnitude == magnitude) }
    }

    @Test(arguments: ["", "-", "1.5", "1e3", " 1", "0x10", "1_000"])
    func notDecimalIntegers(text: String) {
        #expect(Array(text.utf8).withUnsafeBytes { ByteCursor.decimalInteger($0) } == nil)
    }

    @Test func numbersAreReadWholeOrNotAtAll() {
        func double(_ text: String) -> Double? { Array(text.utf8).withUnsafeBytes { ByteCursor.double($0) } }
        func float(_ text: String) -> Float? { Array(text.utf8).withUnsafeBytes { ByteCursor.float($0) } }
        #expect(double("-1.25e2") == -125)
        #expect(double(".5") == 0.5 && double("+2") == 2 && double("0x1p3") == 8)
        #expect(double("inf") == .infinity && double("nan")?.isNaN == true)
        #expect(double("1e999") == .infinity)
        #expect(double("1.5x") == nil && double("") == nil && double("\u{0B}1") == nil && double("1,5") == nil)
        // Straight to Float, rounded once: not the Float of the nearest Double.
        #expect(float("0.1") == Float(0.1) && float("16777217") == 16_777_216)
        let halfwayAndABit = "1.00000005960464477539062500001"  // just above 1 + 2⁻²⁴, halfway between two Floats
        #expect(float(halfwayAndABit) == Float(1).nextUp)
        #expect(Float(double(halfwayAndABit)!) == 1, "through a Double it rounds twice, to the even neighbour")
    }

    @Test func binaryScalarsInEitherByteOrder() {
        withCursor([0x01, 0x02, 0x03, 0x04, 0xFF]) { cursor in
            #expect(cursor.load(UInt16.self, at: 1, byteSwapped: false) == 0x0302)
            #expect(cursor.read(UInt32.self, byteSwapped: true) == 0x0102_0304)
            #expect(cursor.read(Int8.self, byteSwapped: false) == -1)
            #expect(cursor.isAtEnd && cursor.remaining == 0)
        }
    }

    @Test func recordsGatherAFieldOfEach() {
        // Three records of 3 bytes: a byte, then a big-endian 16-bit value.
        withCursor([9, 1, 0, 8, 2, 0, 7, 3, 1]) { cursor in
            let records = cursor.records(stride: 3, count: 3)
            #expect(records.gather(UInt8.self, offset: 0, byteSwapped: false, as: { $0 }) == [9, 8, 7])
            #expect(records.gather(UInt16.self, offset: 1, byteSwapped: true, as: { $0 }) == [0x0100, 0x0200, 0x0301])
            #expect(records.load(UInt8.self, record: 2, offset: 2, byteSwapped: false) == 1)
        }
    }
}
