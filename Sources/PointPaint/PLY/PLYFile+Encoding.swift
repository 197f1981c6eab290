/// Any `PLYFile` as bytes: the header, then each element's entries in the file's encoding, every
/// value written by its type's one `PLYScalar.encode`.
extension PLYFile {
    /// The bytes of the file in `encoding`. Property values must fit their declared types.
    ///
    /// - Complexity: O(size of the data).
    func encodedBytes() -> [UInt8] {
        var header = "ply\nformat \(encoding.headerName) 1.0\n"
        for c in comments { header += "comment \(PLYWriter.oneLine(c))\n" }
        for o in objInfo { header += "obj_info \(PLYWriter.oneLine(o))\n" }
        for e in elements {
            header += "element \(e.name) \(e.count)\n"
            for p in e.properties { header += "property \(p.type) \(p.name)\n" }
        }
        header += "end_header\n"
        var out = Array(header.utf8)
        let ascii = encoding == .ascii
        let swap = encoding == .binaryBigEndian
        func put(_ value: Double, _ type: PLYScalarType) {
            type.scalar.encode(value, ascii: ascii, byteSwapped: swap, to: &out)
        }
        for e in elements {
            for entry in 0 ..< e.count {
                for (k, p) in e.properties.enumerated() {
                    if ascii && k > 0 { out.append(0x20) }
                    switch p.type {
                    case .scalar(let t):
                        put(p.values[entry], t)
                    case .list(let c, let t):
                        let range = p.listOffsets[entry] ..< p.listOffsets[entry + 1]
                        put(Double(range.count), c)
                        for j in range {
                            if ascii { out.append(0x20) }
                            put(p.values[j], t)
                        }
                    }
                }
                if ascii { out.append(0x0A) }
            }
        }
        return out
    }
}
