import Testing
@testable import PointPaint

private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

private func le<T: FixedWidthInteger>(_ v: T) -> [UInt8] { withUnsafeBytes(of: v.littleEndian) { Array($0) } }
private func le(_ v: Float) -> [UInt8] { le(v.bitPattern) }

/// Runs the reader on `data` and returns the error's description.
private func failure(_ data: [UInt8]) -> String? {
    do {
        _ = try PLYReader.read(bytes: data, file: "bad.ply")
        return nil
    } catch let error as PointPaintError {
        return error.description
    } catch {
        return "unexpected \(error)"
    }
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

    @Test("malformed headers name the line and what was expected", arguments: [
        ("plx\nformat ascii 1.0\nend_header\n", "line 1: expected the magic word 'ply'"),
        ("ply junk\nformat ascii 1.0\nend_header\n", "line 1: expected 'ply' alone"),
        ("ply\nelement vertex 1\nproperty float x\nend_header\n0\n", "line 4: expected a 'format' line before 'end_header'"),
        ("ply\nformat ascii 2.0\nend_header\n", "line 2: expected format version 1.0"),
        ("ply\nformat utf16 1.0\nend_header\n", "line 2: expected 'format ascii|binary_little_endian|binary_big_endian 1.0'"),
        ("ply\nformat ascii 1.0\nproperty float x\nend_header\n", "line 3: expected an 'element' line before the first 'property'"),
        ("ply\nformat ascii 1.0\nelement vertex many\nend_header\n", "line 3: expected a non-negative element count, found 'many'"),
        ("ply\nformat ascii 1.0\nelement vertex -5\nend_header\n", "line 3: expected a non-negative element count"),
        ("ply\nformat ascii 1.0\nelement vertex 1\nproperty float\nend_header\n", "line 4: expected 'property TYPE NAME'"),
        ("ply\nformat ascii 1.0\nelement vertex 1\nproperty float16 x\nend_header\n", "line 4: expected a property type"),
        ("ply\nformat ascii 1.0\nelement f 1\nproperty list float int v\nend_header\n", "line 4: expected an integer type for a list count"),
        ("ply\nformat ascii 1.0\nelement f 1\nproperty list uchar v\nend_header\n", "line 4: expected 'property list COUNT_TYPE ITEM_TYPE NAME'"),
        ("ply\nformat ascii 1.0\nelement vertex 0\n", "expected 'end_header' before the end of the file"),
        ("ply\nformat ascii 1.0\nelemnt vertex 0\nend_header\n", "line 3: expected a header keyword"),
        ("ply\nformat ascii 1.0\nformat ascii 1.0\nend_header\n", "line 3: expected one 'format' line"),
        ("ply\nformat ascii 1.0\n\nend_header\n", "line 3: expected a header keyword"),
        ("", "line 1: expected the magic word 'ply'"),
        ("ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\n1\n", "line 5: expected a header keyword (format, comment, obj_info, element, property, end_header), found '1' (missing end_header?)"),
    ])
    func badHeaders(text: String, expected: String) {
        let message = failure(bytes(text))
        #expect(message?.hasPrefix("bad.ply: ") == true)
        #expect(message?.contains(expected) == true, "\(message ?? "no error")")
    }

    @Test("bad ascii data names the line and what was expected", arguments: [
        ("element vertex 2\nproperty float x\nproperty uchar red\nend_header\n1 2\n333\n", "line 8: expected 2 values for vertex 1 of 2, found 1"),
        ("element vertex 3\nproperty float x\nproperty uchar red\nend_header\n1 2\n3 4 5\n6 7\n", "line 8: expected 2 values for vertex 1 of 3, found 3"),
        ("element vertex 2\nproperty float x\nend_header\n1\n\n2\n", "line 7: expected 1 value for vertex 1 of 2, found 0"),
        ("element vertex 2\nproperty float x\nend_header\n1.25\n", "line 7: expected 1 value for vertex 1 of 2, found the end of the file"),
        ("element vertex 1\nproperty float x\nend_header\n1\n2\n", "line 7: expected the end of the file after the last element ('vertex'), found '2'"),
        ("element f 1\nproperty list uchar int v\nproperty float w\nend_header\n3 1 2\n", "line 7: expected 5 values for f 0 of 1, found 3"),
        ("element f 1\nproperty float w\nproperty list uchar int v\nend_header\n1.5\n", "line 7: expected at least 2 values for f 0 of 1, found 1"),
        ("element f 1\nproperty list uchar int v\nend_header\n2 1 2 3\n", "line 6: expected 3 values for f 0 of 1, found 4"),
        ("element vertex 1\nproperty uchar red\nend_header\n255.5\n", "line 6: expected an integer for 'red' (uchar) of vertex 0 of 1, found '255.5'"),
        ("element vertex 1\nproperty uchar red\nend_header\n256.0\n", "line 6: value 256 for 'red' (uchar) of vertex 0 of 1 lies outside 0…255"),
        ("element vertex 1\nproperty float x\nend_header\nabc\n", "line 6: expected a number for 'x' (float) of vertex 0 of 1, found 'abc'"),
        ("element vertex 1\nproperty uchar red\nend_header\n256\n", "line 6: value 256 for 'red' (uchar) of vertex 0 of 1 lies outside 0…255"),
        ("element vertex 1\nproperty int i\nend_header\n1.5\n", "line 6: expected an integer for 'i' (int)"),
        ("element vertex 100000000000\nproperty float x\nend_header\n1\n", "line 6: element 'vertex' declares 100000000000 entries"),
        ("element f 1\nproperty list uint int v\nend_header\n4000000000 1 2\n", "line 6: list 'v' of f 0 holds 4000000000 items"),
        ("element f 1\nproperty list char int v\nend_header\n-3 1 2\n", "line 6: expected a non-negative list length"),
    ])
    func badASCII(body: String, expected: String) {
        let message = failure(bytes("ply\nformat ascii 1.0\n" + body))
        #expect(message?.contains(expected) == true, "\(message ?? "no error")")
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

    @Test("a line with too few values is reported at its own line, whatever follows")
    func shortLineDoesNotShift() {
        var text = "ply\nformat ascii 1.0\nelement vertex 4\nproperty float x\nproperty float y\nproperty float z\nend_header\n"
        text += "0 0 0\n1 1\n2 2 2 2\n3 3 3\n"
        #expect(failure(bytes(text)) == "bad.ply: line 9: expected 3 values for vertex 1 of 4, found 2")
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
        #expect(throws: PointPaintError(file: "x.ply", "expected a scalar property 'x' in the 'vertex' element")) { try ply.cloud(file: "x.ply") }
        let empty = try PLYReader.read(bytes: bytes("ply\nformat ascii 1.0\nelement vertex 0\nproperty float x\nend_header\n"), file: "e.ply")
        #expect(PLYSummary(empty, path: "e.ply").description.contains("bounds: none (no vertices)"))
    }

    @Test("truncated and oversized binary data name the byte offset, without giant allocations")
    func badBinary() {
        let header = "ply\nformat binary_little_endian 1.0\nelement vertex 2\nproperty float x\nproperty uchar red\nend_header\n"
        let headerSize = header.utf8.count
        let truncated = bytes(header) + le(Float(1)) + [7] + le(Float(2))
        #expect(failure(truncated)?.contains("bad.ply: byte offset \(headerSize): element 'vertex' declares 2 entries of at least 5 bytes, but only 9 bytes follow") == true)

        let huge = "ply\nformat binary_little_endian 1.0\nelement vertex 9223372036854775807\nproperty double x\nend_header\n"
        #expect(failure(bytes(huge) + [1, 2, 3])?.contains("declares 9223372036854775807 entries") == true)

        let list = "ply\nformat binary_little_endian 1.0\nelement face 1\nproperty list uint int v\nend_header\n"
        let listSize = list.utf8.count
        #expect(failure(bytes(list) + le(UInt32(4_000_000_000)) + le(Int32(1)))?
            .contains("byte offset \(listSize + 4): list 'v' of face 0 holds 4000000000 items of 4 bytes, but only 4 bytes follow") == true)

        let listThenScalar = "ply\nformat binary_little_endian 1.0\nelement face 2\nproperty list uchar int v\nproperty float w\nend_header\n"
        let data = bytes(listThenScalar) + [1] + le(Int32(5)) + le(Float(1)) + [0] + [1, 2]
        #expect(failure(data)?.contains("expected 4 bytes for 'w' of face 1 of 2, found the end of the file") == true)

        let negative = "ply\nformat binary_big_endian 1.0\nelement face 1\nproperty list char int v\nend_header\n"
        #expect(failure(bytes(negative) + [0xFF])?.contains("expected a non-negative list length") == true)
    }

    @Test("a cloud needs a vertex element with x, y and z")
    func cloudRequirements() throws {
        let noVertex = try PLYReader.read(bytes: bytes("ply\nformat ascii 1.0\nelement point 0\nend_header\n"), file: "n.ply")
        #expect(throws: PointPaintError(file: "n.ply", "expected a 'vertex' element, found 'point'")) { try noVertex.cloud(file: "n.ply") }
        let noZ = try PLYReader.read(bytes: bytes("ply\nformat ascii 1.0\nelement vertex 0\nproperty float x\nproperty float y\nend_header\n"), file: "z.ply")
        #expect(throws: PointPaintError(file: "z.ply", "expected a scalar property 'z' in the 'vertex' element")) { try noZ.cloud(file: "z.ply") }
    }
}
