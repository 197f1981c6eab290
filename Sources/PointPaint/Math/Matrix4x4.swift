/// A 4×4 double-precision matrix stored as four columns, as ARKit's `simd_float4x4` is.
public struct Matrix4x4: Sendable, Equatable {
    /// The columns, left to right.
    public var columns: (SIMD4<Double>, SIMD4<Double>, SIMD4<Double>, SIMD4<Double>)

    /// Creates a matrix from its columns.
    public init(columns c0: SIMD4<Double>, _ c1: SIMD4<Double>, _ c2: SIMD4<Double>, _ c3: SIMD4<Double>) {
        columns = (c0, c1, c2, c3)
    }

    /// Creates a matrix from 16 numbers in column-major order (the capture format's order).
    public init(columnMajor m: [Double]) {
        precondition(m.count == 16, "a 4×4 matrix needs 16 numbers")
        columns = (SIMD4(m[0], m[1], m[2], m[3]), SIMD4(m[4], m[5], m[6], m[7]),
                   SIMD4(m[8], m[9], m[10], m[11]), SIMD4(m[12], m[13], m[14], m[15]))
    }

    /// Element-wise equality.
    public static func == (lhs: Matrix4x4, rhs: Matrix4x4) -> Bool {
        lhs.columns.0 == rhs.columns.0 && lhs.columns.1 == rhs.columns.1
            && lhs.columns.2 == rhs.columns.2 && lhs.columns.3 == rhs.columns.3
    }

    /// The identity.
    public static let identity = Matrix4x4(columns: SIMD4(1, 0, 0, 0), SIMD4(0, 1, 0, 0), SIMD4(0, 0, 1, 0), SIMD4(0, 0, 0, 1))

    /// The 16 numbers in column-major order.
    public var columnMajor: [Double] {
        let (a, b, c, d) = columns
        return [a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w, c.x, c.y, c.z, c.w, d.x, d.y, d.z, d.w]
    }

    /// Element at `row`, `column`.
    public subscript(row: Int, column: Int) -> Double {
        switch column {
        case 0: columns.0[row]
        case 1: columns.1[row]
        case 2: columns.2[row]
        default: columns.3[row]
        }
    }

    /// Whether every element is finite.
    public var isFinite: Bool { columnMajor.allSatisfy(\.isFinite) }

    /// `self · v`.
    @inlinable
    public func transform(_ v: SIMD4<Double>) -> SIMD4<Double> {
        columns.0 * v.x + columns.1 * v.y + columns.2 * v.z + columns.3 * v.w
    }

    /// Transforms a point (w = 1) and drops w.
    @inlinable
    public func transformPoint(_ p: SIMD3<Double>) -> SIMD3<Double> {
        let r = columns.0 * p.x + columns.1 * p.y + columns.2 * p.z + columns.3
        return SIMD3(r.x, r.y, r.z)
    }

    /// `self · other`.
    public static func * (lhs: Matrix4x4, rhs: Matrix4x4) -> Matrix4x4 {
        Matrix4x4(columns: lhs.transform(rhs.columns.0), lhs.transform(rhs.columns.1),
                  lhs.transform(rhs.columns.2), lhs.transform(rhs.columns.3))
    }

    /// The inverse, or nil when the matrix is singular (|det| below 1e-12 of its scale) or not finite.
    public var inverse: Matrix4x4? {
        guard isFinite else { return nil }
        var m = [[Double]](repeating: [Double](repeating: 0, count: 8), count: 4)
        for r in 0 ..< 4 {
            for c in 0 ..< 4 { m[r][c] = self[r, c] }
            m[r][4 + r] = 1
        }
        let scale = columnMajor.map(abs).max() ?? 0
        guard scale > 0 else { return nil }
        // Gauss–Jordan elimination with partial pivoting.
        for col in 0 ..< 4 {
            var pivot = col
            for r in col + 1 ..< 4 where abs(m[r][col]) > abs(m[pivot][col]) { pivot = r }
            guard abs(m[pivot][col]) > 1e-12 * scale else { return nil }
            m.swapAt(col, pivot)
            let p = m[col][col]
            for c in 0 ..< 8 { m[col][c] /= p }
            for r in 0 ..< 4 where r != col {
                let f = m[r][col]
                if f != 0 { for c in 0 ..< 8 { m[r][c] -= f * m[col][c] } }
            }
        }
        var out = [Double](repeating: 0, count: 16)
        for c in 0 ..< 4 { for r in 0 ..< 4 { out[c * 4 + r] = m[r][4 + c] } }
        let inverse = Matrix4x4(columnMajor: out)
        return inverse.isFinite ? inverse : nil
    }
}
