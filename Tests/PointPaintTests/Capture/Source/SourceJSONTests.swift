import Foundation
import Testing
@testable import PointPaint

/// The apps' JSON reader: what Foundation's JSON5 scanner cannot take is refused before it.
@Suite struct SourceJSONTests {
    /// Found by fuzzing (nerfstudio, Tests/Fuzz/Regressions): seven bytes, an unquoted key
    /// holding bytes that are not UTF-8, made Foundation's JSON5 scanner trap
    /// (CodableUtilities.swift:685), ending the process.
    @Test func bytesThatAreNotUTF8AreRefusedAtTheirOffset() throws {
        let input: [UInt8] = [0x7B, 0xFC, 0xFF, 0x00, 0x00, 0x1F, 0x6C]
        let error = try #require(throws: PointPaintError.self) { try SourceJSON(bytes: input, file: "transforms.json") }
        #expect(error.kind == .malformed && error.place == .byteOffset(1), "\(error)")
        let later = try #require(throws: PointPaintError.self) { try SourceJSON(bytes: Array("{\"é\": 1, x".utf8) + [0xC3], file: "t.json") }
        #expect(later.place == .byteOffset(11))
        #expect(SourceJSON.firstInvalidUTF8(Array("{\"é\": [1, 2]}".utf8)) == nil)
    }

    /// Found by fuzzing (record3d-metadata, Tests/Fuzz/Regressions): `{"":[[8e-]]}` made
    /// Foundation's JSON5 reader trap when it read the number (JSON5Scanner.validateNumber).
    @Test(arguments: ["{\"\":[[8e-]]}", "{a: 1e}", "[.]", "[-]", "[+e5]", "[0x]", "[1.2.3]", "[1e5x]", "[0xG1]", "{k: -Infinityy}"])
    func numbersThatAreNotNumbersAreRefusedAtTheirOffset(text: String) throws {
        let error = try #require(throws: PointPaintError.self) { try SourceJSON(bytes: Array(text.utf8), file: "m.json") }
        #expect(error.kind == .malformed && error.message.hasPrefix("expected a number, found '"), "\(error)")
    }

    /// Found by fuzzing (record3d-metadata, 5.4 M inputs in, Tests/Fuzz/Regressions): Foundation's
    /// reason for a syntax error quoted a number of a thousand digits whole, making an error line
    /// of 1,121 characters; the reason is cut at `longestReason`.
    @Test func aSyntaxErrorQuotingALongNumberStaysOneShortLine() throws {
        let text = "[" + String(repeating: "6", count: 400) + "1e9996" + String(repeating: "6", count: 600) + "]"
        let error = try #require(throws: PointPaintError.self) { try SourceJSON(bytes: Array(text.utf8), file: "metadata.json") }
        #expect(error.kind == .malformed && error.description.count < 400, "\(error.description.count): \(error)")
        #expect(error.message.hasPrefix("expected JSON, found text that does not parse ("), "\(error)")
    }

    /// Found by fuzzing (polycam-camera and record3d-metadata, Tests/Fuzz/Regressions): a document
    /// ending in a number of 19 digits or more, or in a number after a comment, made Foundation's
    /// JSON5 scanner read the byte after the text and trap when that byte was a digit or a point,
    /// so the scanner is given the text with a newline after it.
    @Test func aNumberMayEndTheText() throws {
        let digits = "77777777777777777777777777777777777772"
        #expect(try SourceJSON(bytes: Array(digits.utf8), file: "c.json").root.number() == 7.777777777777778e37)
        #expect(try SourceJSON(bytes: Array("// applied_transform\n0".utf8), file: "m.json").root.number() == 0)
        let object = try SourceJSON(bytes: Array("{fx: 1, cy: 7777777777777777777".utf8) + Array("}".utf8), file: "c.json")
        #expect(try object.root["cy"].number() == 7.777777777777778e18)
        let scanned = SourceJSON.scannable(Array(digits.utf8))
        #expect(scanned.count == digits.utf8.count + 1 && scanned.last == 0x0A && scanned.dropLast().elementsEqual(digits.utf8))
    }

    @Test(arguments: ["[1, -2, +3, .5, 5., 1e5, 1E-5, 2.5e+3, 0x1F, -0xff, NaN, -Infinity, +Infinity, 007]",
                      "{t_00: 1, 'e-1': \"8e-\", // 8e-\n /* 1e */ x: -0}"])
    func JSON5NumbersAreAccepted(text: String) throws {
        #expect(SourceJSON.firstInvalidNumber(Array(text.utf8)) == nil)
    }

    @Test func JSON5StaysAccepted() throws {
        let json = try SourceJSON(bytes: Array("{w: 64, 'h': 48, // a comment\n frames: [1, 2,],}".utf8), file: "t.json")
        #expect(try json.root["w"].number() == 64 && json.root["frames"].exists)
    }
}
