import Foundation

/// A small comma-separated text file as phone apps write them (Stray Scanner's `odometry.csv`
/// and `camera_matrix.csv`): one record a line, fields split at commas and trimmed of spaces, no
/// quoting. Columns are found by the names of a header line; numbers are read in decimal or
/// exponent form (`1e-05`), and every error names the file, the line and the column.
struct SourceCSV {
    /// How the first line is read.
    enum Header {
        /// The first line names the columns.
        case required
        /// No header: every line is a record, its columns named `names`.
        case absent(names: [String])
        /// A first line whose first field is a number is a record, its columns named
        /// `namesIfAbsent`; any other first line is the header.
        case optional(namesIfAbsent: [String])
    }

    /// A record: its fields and the line it stands on (from 1).
    struct Row {
        /// The line in the file, from 1.
        let line: Int
        /// The fields, trimmed.
        let fields: [Substring]
    }

    /// A column found by name.
    struct Column {
        /// Its name in the header.
        let name: String
        /// Its position in a record.
        let index: Int
    }

    /// The file, for errors.
    let file: String
    /// The column names: the header's, or those given for a file without one.
    let names: [String]
    /// Whether the file had a header line.
    let hasHeader: Bool
    /// The records, in file order.
    let rows: [Row]

    /// Reads `path` (at most `limit` bytes) and splits it into records, each with as many
    /// fields as there are column names. Lines end with `\n` or `\r\n`; a last line without a
    /// line break is read; empty lines at the end are ignored.
    /// - Throws: `.missing` for an absent file; `.tooLarge` for one over `limit`; `.malformed` at
    ///   `.line(n)` for a line that is not UTF-8, an empty line amid the records, a record whose
    ///   field count differs from the columns', a header with an empty or repeated name, or a
    ///   file without records.
    init(contentsOf path: String, limit: Int, header: Header) throws {
        file = path
        guard let size = FileBytes.size(of: path) else {
            throw PointPaintError(.missing, file: path, "expected the file, found none")
        }
        guard size <= limit else {
            throw PointPaintError(.tooLarge, file: path, "expected at most \(limit >> 20) MiB, found \(size) bytes")
        }
        let bytes = try FileBytes.read(path, limit: limit)
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
            line.last == 0x0D ? line.dropLast() : line
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        var parsed: [Row] = []
        parsed.reserveCapacity(lines.count)
        for (offset, line) in lines.enumerated() {
            guard let text = String(validating: line, as: UTF8.self) else {
                throw PointPaintError(.malformed, file: path, place: .line(offset + 1), "expected UTF-8 text, found bytes that are not")
            }
            guard !text.isEmpty else {
                throw PointPaintError(.malformed, file: path, place: .line(offset + 1), "expected a record, found an empty line")
            }
            parsed.append(Row(line: offset + 1, fields: text.split(separator: ",", omittingEmptySubsequences: false).map(Self.trimmed)))
        }
        guard let first = parsed.first else {
            throw PointPaintError(.malformed, file: path, "expected comma-separated records, found an empty file")
        }
        let givenNames: [String]?
        switch header {
        case .required: givenNames = nil
        case .absent(let names): givenNames = names
        case .optional(let names): givenNames = Self.number(first.fields[0]) == nil ? nil : names
        }
        if let givenNames {
            names = givenNames
            hasHeader = false
            rows = parsed
        } else {
            names = first.fields.map(String.init)
            hasHeader = true
            rows = Array(parsed.dropFirst())
            for (index, name) in names.enumerated() {
                guard !name.isEmpty else {
                    throw PointPaintError(.malformed, file: path, place: .line(1), "expected a column name in field \(index + 1) of the header, found none")
                }
                guard names.firstIndex(of: name) == index else {
                    throw PointPaintError(.malformed, file: path, place: .line(1), "expected each column named once, found \(PointPaintError.quote(name)) twice")
                }
            }
            guard !rows.isEmpty else {
                throw PointPaintError(.malformed, file: path, place: .line(1), "expected records after the header, found none")
            }
        }
        for row in rows where row.fields.count != names.count {
            throw PointPaintError(.malformed, file: path, place: .line(row.line),
                                  "expected \(names.count) fields (\(hasHeader ? "as the header names" : names.joined(separator: ", "))), found \(row.fields.count)")
        }
    }

    /// The column called `name`, or nil.
    func column(ifPresent name: String) -> Column? {
        names.firstIndex(of: name).map { Column(name: name, index: $0) }
    }

    /// The column called `name`.
    /// - Throws: `.missing` at the header's line naming the column and those there are.
    func column(_ name: String) throws -> Column {
        guard let column = column(ifPresent: name) else {
            throw PointPaintError(.missing, file: file, place: .line(1),
                                  "expected a column \(PointPaintError.quote(name)), found only \(names.map { PointPaintError.quote($0) }.joined(separator: ", "))")
        }
        return column
    }

    /// The finite number in `column` of `row`.
    /// - Throws: `.malformed` at the row's line, naming the column, for an empty field, text that
    ///   is not a decimal number, or a number that is not finite (`nan`, `inf`, or too large).
    func number(_ column: Column, in row: Row) throws -> Double {
        guard let value = try optionalNumber(column, in: row) else {
            throw PointPaintError(.malformed, file: file, place: .line(row.line), "column \(column.name): expected a number, found an empty field")
        }
        return value
    }

    /// The finite number in `column` of `row`, or nil when the field is empty.
    /// - Throws: as `number(_:in:)` for a field that is not empty.
    func optionalNumber(_ column: Column, in row: Row) throws -> Double? {
        let field = row.fields[column.index]
        if field.isEmpty { return nil }
        guard let value = Self.number(field) else {
            throw PointPaintError(.malformed, file: file, place: .line(row.line),
                                  "column \(column.name): expected a number, found \(PointPaintError.quote(field))")
        }
        guard value.isFinite else {
            throw PointPaintError(.malformed, file: file, place: .line(row.line),
                                  "column \(column.name): expected a finite number, found \(PointPaintError.quote(field))")
        }
        return value
    }

    /// The whole number (digits only, leading zeros allowed: `000042`) in `column` of `row`.
    /// - Throws: `.malformed` at the row's line, naming the column, for anything else or a number
    ///   of more than 15 digits.
    func integer(_ column: Column, in row: Row) throws -> Int {
        let field = row.fields[column.index]
        guard !field.isEmpty, field.count <= 15, field.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(field) else {
            throw PointPaintError(.malformed, file: file, place: .line(row.line),
                                  "column \(column.name): expected a whole number, found \(PointPaintError.quote(field))")
        }
        return value
    }

    /// A decimal number: sign, digits with at most one point, an optional exponent; or `nan`,
    /// `inf`, `infinity` (any case, signed), as Swift and C print them. Nil for anything else
    /// (hexadecimal floats included).
    static func number(_ text: Substring) -> Double? {
        var body = text
        if body.first == "+" || body.first == "-" { body = body.dropFirst() }
        let lower = body.lowercased()
        if lower == "nan" || lower == "inf" || lower == "infinity" { return Double(text.lowercased()) }
        var digits = 0, points = 0, exponent = false, exponentDigits = 0, previous: Character = " "
        for character in body {
            switch character {
            case "0" ... "9":
                if exponent { exponentDigits += 1 } else { digits += 1 }
            case "." where !exponent:
                points += 1
            case "e", "E":
                guard !exponent, digits > 0 else { return nil }
                exponent = true
            case "+", "-":
                guard previous == "e" || previous == "E" else { return nil }
            default:
                return nil
            }
            previous = character
        }
        guard digits > 0, points <= 1, !exponent || exponentDigits > 0 else { return nil }
        return Double(text)
    }

    /// `field` without spaces and tabs at either end.
    private static func trimmed(_ field: Substring) -> Substring {
        var field = field
        while let first = field.first, first == " " || first == "\t" { field = field.dropFirst() }
        while let last = field.last, last == " " || last == "\t" { field = field.dropLast() }
        return field
    }
}
