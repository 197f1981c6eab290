import Testing
@testable import PointPaint

private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

private func le<T: FixedWidthInteger>(_ v: T) -> [UInt8] { withUnsafeBytes(of: v.littleEndian) { Array($0) } }
private func le(_ v: Float) -> [UInt8] { le(v.bitPattern) }

/// The error the reader gives for `data`, named `bad.ply`.
private func failure(_ data: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> PointPaintError? {
    let error = pointPaintError(sourceLocation: sourceLocation) { _ = try PLYReader.read(bytes: data, file: "bad.ply") }
    #expect(error?.file == "bad.ply", sourceLocation: sourceLocation)
    return error
}

@Suite("PLY reader")
struct PLYReaderTests {
    @Test("any property order, extra properties and elements skipped, colour name variants")
    func orderAndExtras() throws {
        for (r, g, b) in [("red", "green", "blue"), ("r", "g", "b"), ("diffuse_red", "diffuse_green", "diffuse_blue")] {
            let text = """
                ply
                format ascii 1.0
                comment first
                obj_info something
                element camera 1
                property float view_px
                element vertex 2
                property uchar \(b)
                property float z
                property double nx
                property float x
                property uchar \(r)
                property float y
                property uchar \(g)
                property list uchar int extra
                end_header
                42.5
                3 0.5 9 0.25 1 0.75 2 2 7 8
                255 -1.5 9 1e3 0 -2 128 0

                """
            let cloud = try PLYReader.read(bytes: bytes(text), file: "o.ply").cloud(file: "o.ply")
            #expect(cloud.positions == [SIMD3(0.25, 0.75, 0.5), SIMD3(1000, -2, -1.5)])
            #expect(cloud.colors[0] == SIMD3<Float>(1, 2, 3) * (1 / 255))
            #expect(cloud.colors[1] == SIMD3<Float>(0, 128, 255) * (1 / 255))
            #expect(cloud.voxelSize == nil)
        }
    }

    @Test("float colours and missing colour")
    func floatAndMissingColour() throws {
        let text = "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\nproperty float z\nproperty float red\nproperty float green\nproperty float blue\nend_header\n1 2 3 0.5 1.5 -0.25\n"
        #expect(try PLYReader.read(bytes: bytes(text), file: "f").cloud(file: "f").colors == [SIMD3(0.5, 1.5, -0.25)])
        let plain = "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\nproperty float z\nend_header\n1 2 3\n"
        let ply = try PLYReader.read(bytes: bytes(plain), file: "p")
        #expect(try ply.cloud(file: "p").colors == [SIMD3(1, 1, 1)])
        #expect(PLYSummary(ply, path: "p").description.contains("colour: none"))
    }

    @Test("CRLF and CR headers; binary data starting with 0x0A or 0x0D", arguments: ["\n", "\r\n", "\r"])
    func lineEndings(ending: String) throws {
        let header = ["ply", "format binary_little_endian 1.0", "comment voxel_size 0.5", "element vertex 2",
                      "property uchar red", "property float x", "property float y", "property float z", "end_header"]
            .joined(separator: ending) + ending
        // First data bytes 0x0D then 0x0A: must not be taken as part of the header's line end.
        var data = bytes(header)
        data += [0x0D] + le(Float(1)) + le(Float(2)) + le(Float(3))
        data += [0x0A] + le(Float(-1)) + le(Float(-2)) + le(Float(-3))
        let ply = try PLYReader.read(bytes: data, file: "e.ply")
        #expect(ply.comments == ["voxel_size 0.5"])
        #expect(ply[element: "vertex"]?[property: "red"]?.values == .uint8([13, 10]))
        let cloud = try ply.cloud(file: "e.ply")
        #expect(cloud.positions == [SIMD3(1, 2, 3), SIMD3(-1, -2, -3)])
        #expect(cloud.voxelSize == 0.5)
    }

    /// Found by fuzzing (ply-binary, Tests/Fuzz/Regressions): a property name followed by many
    /// CRs before the LF lost one CR each time the file was read and written back, so writing a
    /// parsed file was no fixed point. Every CR before an LF now ends the line, and a CR inside a
    /// header line separates words.
    @Test("header lines ending in several CRs read as their text and write back unchanged")
    func severalCarriageReturns() throws {
        let header = "ply\nformat binary_little_endian 1.0\ncomment made twice\r\r\nelement vertex 1\n"
            + "property float x\r\r\r\nproperty float y\r\nproperty float z\nend_header\r\r\n"
        let ply = try PLYReader.read(bytes: bytes(header) + le(Float(1)) + le(Float(2)) + le(Float(3)), file: "cr.ply")
        #expect(ply.comments == ["made twice"])
        #expect(ply[element: "vertex"]?.properties.map(\.name) == ["x", "y", "z"])
        #expect(try ply.cloud(file: "cr.ply").positions == [SIMD3(1, 2, 3)])
        let written = PLYWriter.encode(ply)
        #expect(PLYWriter.encode(try PLYReader.read(bytes: written, file: "written.ply")) == written)
        // A CR inside a line separates words: here a fourth word, CRs then a tab at the end.
        let inside = "ply\nformat ascii 1.0\nelement vertex 0\nproperty float x\r\r-1\r\r\t\r\r\nend_header\n"
        let error = try #require(failure(bytes(inside)))
        #expect(error.place == .line(4) && error.message.hasPrefix("expected 'property TYPE NAME'"), "\(error)")
    }

    /// Found by fuzzing (ply-binary, Tests/Fuzz/Regressions): `element face 844444444444444444`
    /// with no property took forever in every pass over its entries (none of them bounded by the
    /// file's size, since they take no bytes). An element of entries needs a property.
    @Test("an element of entries without properties is refused at its line", arguments: ["binary_little_endian", "ascii"])
    func elementWithoutProperties(format: String) throws {
        let text = "ply\nformat \(format) 1.0\nelement vertex 1\nproperty float x\nelement face 844444444444444444\nend_header\n1\n"
        let error = try #require(failure(bytes(text)))
        #expect(error.place == .line(5) && error.message == "expected a 'property' line for element 'face' of 844444444444444444 entries, found none", "\(error)")
        let between = "ply\nformat \(format) 1.0\nelement face 3\nelement vertex 0\nproperty float x\nend_header\n"
        #expect(try #require(failure(bytes(between))).place == .line(3))
        // No entries, no properties: nothing to read, as before.
        let empty = try PLYReader.read(bytes: bytes("ply\nformat \(format) 1.0\nelement face 0\nend_header\n"), file: "e.ply")
        #expect(empty.elements.map(\.count) == [0])
    }

    @Test("malformed headers and ascii data name the line and what was expected", arguments: [
        ("plx\nformat ascii 1.0\nend_header\n", PointPaintError.Kind.malformed, 1),
        ("ply junk\nformat ascii 1.0\nend_header\n", .malformed, 1),
        ("ply\nelement vertex 1\nproperty float x\nend_header\n0\n", .missing, 4),
        ("ply\nformat ascii 2.0\nend_header\n", .unsupported, 2),
        ("ply\nformat utf16 1.0\nend_header\n", .unsupported, 2),
        ("ply\nformat ascii\nend_header\n", .malformed, 2),
        ("ply\nformat ascii 1.0\nproperty float x\nend_header\n", .malformed, 3),
        ("ply\nformat ascii 1.0\nelement vertex many\nend_header\n", .malformed, 3),
        ("ply\nformat ascii 1.0\nelement vertex -5\nend_header\n", .malformed, 3),
        ("ply\nformat ascii 1.0\nelement vertex 1\nproperty float\nend_header\n", .malformed, 4),
        ("ply\nformat ascii 1.0\nelement vertex 1\nproperty float16 x\nend_header\n", .unsupported, 4),
        ("ply\nformat ascii 1.0\nelement f 1\nproperty list float int v\nend_header\n", .malformed, 4),
        ("ply\nformat ascii 1.0\nelement f 1\nproperty list uchar v\nend_header\n", .malformed, 4),
        ("ply\nformat ascii 1.0\nelement vertex 0\n", .malformed, 4),
        ("ply\nformat ascii 1.0\nelemnt vertex 0\nend_header\n", .malformed, 3),
        ("ply\nformat ascii 1.0\nformat ascii 1.0\nend_header\n", .malformed, 3),
        ("ply\nformat ascii 1.0\n\nend_header\n", .malformed, 3),
        ("ply\nformat ascii 1.0\nend_header extra\n", .malformed, 3),
        ("", .malformed, 1),
        ("ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\n1\n", .malformed, 5),
        ("ply\nformat ascii 1.0\nelement vertex 2\nproperty float x\nproperty uchar red\nend_header\n1 2\n333\n", .malformed, 8),
        ("ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty uchar red\nend_header\n1 2\n3 4 5\n6 7\n", .malformed, 8),
        ("ply\nformat ascii 1.0\nelement vertex 2\nproperty float x\nend_header\n1\n\n2\n", .malformed, 7),
        ("ply\nformat ascii 1.0\nelement vertex 2\nproperty float x\nend_header\n1.25\n", .malformed, 7),
        ("ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nend_header\n1\n2\n", .malformed, 7),
        ("ply\nformat ascii 1.0\nelement f 1\nproperty list uchar int v\nproperty float w\nend_header\n3 1 2\n", .malformed, 7),
        ("ply\nformat ascii 1.0\nelement f 1\nproperty float w\nproperty list uchar int v\nend_header\n1.5\n", .malformed, 7),
        ("ply\nformat ascii 1.0\nelement f 1\nproperty list uchar int v\nend_header\n2 1 2 3\n", .malformed, 6),
        ("ply\nformat ascii 1.0\nelement vertex 1\nproperty uchar red\nend_header\n255.5\n", .malformed, 6),
        ("ply\nformat ascii 1.0\nelement vertex 1\nproperty uchar red\nend_header\n256.0\n", .outOfRange, 6),
        ("ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nend_header\nabc\n", .malformed, 6),
        ("ply\nformat ascii 1.0\nelement vertex 1\nproperty uchar red\nend_header\n256\n", .outOfRange, 6),
        ("ply\nformat ascii 1.0\nelement vertex 1\nproperty int i\nend_header\n1.5\n", .malformed, 6),
        ("ply\nformat ascii 1.0\nelement vertex 100000000000\nproperty float x\nend_header\n1\n", .tooLarge, 6),
        ("ply\nformat ascii 1.0\nelement f 1\nproperty list uint int v\nend_header\n4000000000 1 2\n", .tooLarge, 6),
        ("ply\nformat ascii 1.0\nelement f 1\nproperty list char int v\nend_header\n-3 1 2\n", .outOfRange, 6),
    ])
    func badHeadersAndASCIIData(text: String, kind: PointPaintError.Kind, line: Int) throws {
        let error = try #require(failure(bytes(text)))
        #expect(error.kind == kind && error.place == .line(line), "\(error)")
    }

    /// The one wording test of the header family.
    @Test("header wording") func headerWording() {
        let text = "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\n1\n"
        #expect(failure(bytes(text))?.description
            == "bad.ply: line 5: expected a header keyword (format, comment, obj_info, element, property, end_header), found '1' (missing end_header?)")
    }

    /// 18446744073709551615 was called "expected a non-negative element count".
    @Test("an element count beyond Int is too large, not negative")
    func elementCountBeyondInt() throws {
        let error = try #require(failure(bytes("ply\nformat ascii 1.0\nelement vertex 18446744073709551615\nend_header\n")))
        #expect(error.kind == .tooLarge && error.place == .line(3), "\(error)")
        #expect(!error.message.contains("non-negative"))
    }

    @Test("a 10 MB header line is quoted, not echoed")
    func hugeHeaderLine() throws {
        let line = "format " + String(repeating: "\u{1B}[2J", count: (10 << 20) / 4)
        let error = try #require(failure(bytes("ply\n" + line + "\nend_header\n")))
        #expect(error.kind == .malformed && error.place == .line(2))
        #expect(error.description.count < 400 && !error.description.contains("\u{1B}"), "\(error.description.prefix(300))")
    }

    @Test("a UTF-8 byte-order mark before 'ply' is skipped")
    func byteOrderMark() throws {
        let text = "ply\nformat binary_little_endian 1.0\nelement vertex 1\nproperty float x\nend_header\n"
        let ply = try PLYReader.read(bytes: [0xEF, 0xBB, 0xBF] + bytes(text) + le(Float(2.5)), file: "b.ply")
        #expect(ply[element: "vertex"]?[property: "x"]?.values == .float32([2.5]))
        let ascii = try PLYReader.read(bytes: [0xEF, 0xBB, 0xBF] + bytes("ply\nformat ascii 1.0\nelement vertex 1\nproperty uchar x\nend_header\n7\n"), file: "a.ply")
        #expect(ascii[element: "vertex"]?[property: "x"]?.values == .uint8([7]))
    }

    @Test("ascii data: one entry a line, LF, CRLF or CR line ends, tabs, trailing blank lines", arguments: ["\n", "\r\n", "\r"])
    func asciiLines(ending: String) throws {
        let lines = ["ply", "format ascii 1.0", "element vertex 2", "property float x", "property uchar red",
                     "element face 2", "property list uchar int v", "end_header",
                     "1.5 255.0 ", "\t-2\t7", "3 0 1 2", "0", "", ""]
        let ply = try PLYReader.read(bytes: bytes(lines.joined(separator: ending)), file: "l.ply")
        #expect(ply[element: "vertex"]?[property: "x"]?.values == .float32([1.5, -2]))
        #expect(ply[element: "vertex"]?[property: "red"]?.values == .uint8([255, 7]))
        let v = try #require(ply[element: "face"]?[property: "v"])
        #expect(v.list(at: 0) == [0, 1, 2])
        #expect(v.list(at: 1) == [])
        // Without a final line end too.
        let short = "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nend_header\n4"
        #expect(try PLYReader.read(bytes: bytes(short), file: "s.ply")[element: "vertex"]?[property: "x"]?.values == .float32([4]))
    }

    /// The one wording test of the ascii-data family.
    @Test("a line with too few values is reported at its own line, whatever follows")
    func shortLineDoesNotShift() {
        var text = "ply\nformat ascii 1.0\nelement vertex 4\nproperty float x\nproperty float y\nproperty float z\nend_header\n"
        text += "0 0 0\n1 1\n2 2 2 2\n3 3 3\n"
        #expect(failure(bytes(text))?.description == "bad.ply: line 9: expected 3 values for vertex 1 of 4, found 2")
        let escape = "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nend_header\n1\n\u{1B}[2J\r\n"
        #expect(failure(bytes(escape))?.description == "bad.ply: line 7: expected the end of the file after the last element ('vertex'), found '\\u{1B}[2J'")
    }

    @Test("info on vertices whose x is a list: no bounds, no crash", arguments: [PLYEncoding.ascii, .binaryLittleEndian])
    func listTypedPositions(encoding: PLYEncoding) throws {
        let x = PLYProperty(name: "x", countType: .uint8, itemType: .float32, lists: [[1, 2], []])
        let vertex = PLYElement(name: "vertex", count: 2, properties: [
            x, PLYProperty(name: "y", values: .float32([0, 1])), PLYProperty(name: "z", values: .float32([0, 1])),
        ])
        let ply = try PLYReader.read(bytes: PLYWriter.encode(PLYFile(encoding: encoding, elements: [vertex])), file: "x.ply")
        let summary = PLYSummary(ply, path: "x.ply")
        #expect(summary.bounds == nil)
        #expect(summary.description.contains("bounds: none (the vertices lack scalar x, y, z properties)"))
        let error = try #require(pointPaintError { _ = try ply.cloud(file: "x.ply") })
        #expect(error.kind == .missing && error.file == "x.ply" && error.place == nil)
        let empty = try PLYReader.read(bytes: bytes("ply\nformat ascii 1.0\nelement vertex 0\nproperty float x\nend_header\n"), file: "e.ply")
        #expect(PLYSummary(empty, path: "e.ply").description.contains("bounds: none (no vertices)"))
    }

    /// The first test is the one wording test of the binary-data family.
    @Test("truncated and oversized binary data name the byte offset, without giant allocations")
    func badBinary() throws {
        let header = "ply\nformat binary_little_endian 1.0\nelement vertex 2\nproperty float x\nproperty uchar red\nend_header\n"
        let headerSize = header.utf8.count
        let truncated = bytes(header) + le(Float(1)) + [7] + le(Float(2))
        #expect(failure(truncated)?.description
            == "bad.ply: byte offset \(headerSize): element 'vertex' declares 2 entries of at least 5 bytes, but only 9 bytes follow")

        let huge = "ply\nformat binary_little_endian 1.0\nelement vertex 9223372036854775807\nproperty double x\nend_header\n"
        let hugeError = try #require(failure(bytes(huge) + [1, 2, 3]))
        #expect(hugeError.kind == .tooLarge && hugeError.place == .byteOffset(huge.utf8.count))

        let list = "ply\nformat binary_little_endian 1.0\nelement face 1\nproperty list uint int v\nend_header\n"
        let listError = try #require(failure(bytes(list) + le(UInt32(4_000_000_000)) + le(Int32(1))))
        #expect(listError.kind == .tooLarge && listError.place == .byteOffset(list.utf8.count + 4))

        let listThenScalar = "ply\nformat binary_little_endian 1.0\nelement face 2\nproperty list uchar int v\nproperty float w\nend_header\n"
        let data = bytes(listThenScalar) + [1] + le(Int32(5)) + le(Float(1)) + [0] + [1, 2]
        let short = try #require(failure(data))
        #expect(short.kind == .malformed && short.place == .byteOffset(listThenScalar.utf8.count + 10))

        let negative = "ply\nformat binary_big_endian 1.0\nelement face 1\nproperty list char int v\nend_header\n"
        let negativeError = try #require(failure(bytes(negative) + [0xFF]))
        #expect(negativeError.kind == .outOfRange && negativeError.place == .byteOffset(negative.utf8.count))
    }

    @Test("a cloud needs a vertex element with x, y and z")
    func cloudRequirements() throws {
        let noVertex = try PLYReader.read(bytes: bytes("ply\nformat ascii 1.0\nelement point 0\nend_header\n"), file: "n.ply")
        let error = try #require(pointPaintError { _ = try noVertex.cloud(file: "n.ply") })
        #expect(error.kind == .missing && error.file == "n.ply" && error.place == nil)
        let noZ = try PLYReader.read(bytes: bytes("ply\nformat ascii 1.0\nelement vertex 0\nproperty float x\nproperty float y\nend_header\n"), file: "z.ply")
        let noZError = try #require(pointPaintError { _ = try noZ.cloud(file: "z.ply") })
        #expect(noZError.kind == .missing && noZError.file == "z.ply" && noZError.place == nil)
    }

    /// Element and property names are the file's text: an escape in one, or a name of a
    /// megabyte, reaches the error line spelled out and cut.
    @Test("element and property names in errors are shown escaped and cut")
    func hostileNames() throws {
        let escape = "e\u{1B}[2J"
        let cases = [
            "ply\nformat binary_little_endian 1.0\nelement \(escape) 5\nproperty float x\nend_header\n",
            "ply\nformat ascii 1.0\nelement \(escape) 2\nproperty float x\nend_header\n1\n",
            "ply\nformat ascii 1.0\nelement v 1\nproperty list uchar int \(escape)\nend_header\n-1\n",
            "ply\nformat ascii 1.0\nelement \(String(repeating: "n", count: 1 << 20)) 1\nproperty uchar x\nend_header\n300\n",
        ]
        for text in cases {
            let error = try #require(failure(bytes(text)))
            #expect(!error.description.contains("\u{1B}") && error.description.count < 300, "\(error.description.prefix(300))")
        }
        let cloud = try #require(pointPaintError {
            _ = try PLYReader.read(bytes: bytes("ply\nformat ascii 1.0\nelement \(escape) 0\nend_header\n"), file: "c.ply").cloud(file: "c.ply")
        })
        #expect(cloud.kind == .missing && cloud.description == "c.ply: expected a 'vertex' element, found 'e\\u{1B}[2J'")
    }

    /// Found by fuzzing (ply-ascii): invalid UTF-8 in an element name and a value, each byte
    /// spelled out as `\u{FFFD}`, made an error line of 824 characters.
    @Test("invalid bytes in names and values keep the error line short")
    func fuzzInvalidBytesInNames() throws {
        let input: [UInt8] = [0x65, 0x6C, 0x65, 0x6D, 0x65, 0x6E, 0x74, 0x20, 0xFD, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x20, 0x31, 0x0A, 0x65, 0x6E, 0x64, 0x5F, 0x68, 0x65, 0x61, 0x64, 0x65, 0x72, 0x0A, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x78, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        let error = try #require(failure(bytes("ply\nformat ascii 1.0\n") + input))
        #expect(error.description.count < 300, "\(error.description)")
    }
}
