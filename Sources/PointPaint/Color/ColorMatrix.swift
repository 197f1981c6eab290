/// A 3×3 matrix in double precision, stored as rows, for linear-light colour conversions.
///
/// `matrix * v` treats `v` as a column vector, so `a * (b * v) == (a * b) * v`.
public struct ColorMatrix: Sendable, Hashable, CustomStringConvertible {
    /// First row.
    public var row0: SIMD3<Double>
    /// Second row.
    public var row1: SIMD3<Double>
    /// Third row.
    public var row2: SIMD3<Double>

    /// Creates a matrix from its rows.
    public init(rows row0: SIMD3<Double>, _ row1: SIMD3<Double>, _ row2: SIMD3<Double>) {
        self.row0 = row0
        self.row1 = row1
        self.row2 = row2
    }

    /// Creates a matrix from its columns.
    public init(columns c0: SIMD3<Double>, _ c1: SIMD3<Double>, _ c2: SIMD3<Double>) {
        self.init(rows: SIMD3(c0.x, c1.x, c2.x), SIMD3(c0.y, c1.y, c2.y), SIMD3(c0.z, c1.z, c2.z))
    }

    /// A diagonal matrix.
    public init(diagonal d: SIMD3<Double>) {
        self.init(rows: SIMD3(d.x, 0, 0), SIMD3(0, d.y, 0), SIMD3(0, 0, d.z))
    }

    /// The identity matrix.
    public static let identity = ColorMatrix(diagonal: SIMD3(1, 1, 1))

    /// The element at `row`, `column` (both 0…2).
    public subscript(row: Int, column: Int) -> Double {
        let r = row == 0 ? row0 : row == 1 ? row1 : row2
        return r[column]
    }

    /// The first, second and third columns.
    public var columns: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>) {
        (SIMD3(row0.x, row1.x, row2.x), SIMD3(row0.y, row1.y, row2.y), SIMD3(row0.z, row1.z, row2.z))
    }

    /// The transpose.
    public var transposed: ColorMatrix {
        let c = columns
        return ColorMatrix(rows: c.0, c.1, c.2)
    }

    /// The determinant.
    public var determinant: Double {
        (row0 * Self.cross(row1, row2)).sum()
    }

    /// The inverse, by the adjugate; `nil` when the matrix is singular.
    public var inverse: ColorMatrix? {
        let det = determinant
        guard det != 0, det.isFinite else { return nil }
        // Columns of the inverse are the cross products of row pairs, divided by the determinant.
        let c0 = Self.cross(row1, row2) / det
        let c1 = Self.cross(row2, row0) / det
        let c2 = Self.cross(row0, row1) / det
        return ColorMatrix(columns: c0, c1, c2)
    }

    /// Matrix times column vector.
    @inlinable
    public static func * (m: ColorMatrix, v: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3((m.row0 * v).sum(), (m.row1 * v).sum(), (m.row2 * v).sum())
    }

    /// Matrix product: `(a * b) * v == a * (b * v)`.
    public static func * (a: ColorMatrix, b: ColorMatrix) -> ColorMatrix {
        let c = b.columns
        return ColorMatrix(columns: a * c.0, a * c.1, a * c.2)
    }

    /// The matrix in single precision, as rows, for fast per-sample conversion.
    public var floatRows: (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>) {
        (SIMD3<Float>(row0), SIMD3<Float>(row1), SIMD3<Float>(row2))
    }

    /// Rows in brackets, each number in its shortest round-trip form.
    public var description: String {
        "[\(row0.x) \(row0.y) \(row0.z); \(row1.x) \(row1.y) \(row1.z); \(row2.x) \(row2.y) \(row2.z)]"
    }

    /// The cross product of two 3-vectors.
    private static func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    }
}
