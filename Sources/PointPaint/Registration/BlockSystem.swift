import Foundation

/// The normal equations of many poses at once, held as 6 × 6 blocks: a block row a free pose,
/// with a block for each pose its residuals share (itself, and the frames its points matched).
/// A recording of thousands of frames makes a system of tens of thousands of unknowns whose
/// blocks are nearly all zero: solved by conjugate gradients with the diagonal blocks as the
/// preconditioner, in a fixed order, so the result is the same on any thread count.
struct BlockSystem {
    /// The blocks of each row by column, and the right-hand side (gradient) of each row.
    private(set) var rows: [[Int: Matrix6]]
    private(set) var gradient: [SIMD8<Double>]

    /// An empty system of `count` block rows.
    init(count: Int) {
        rows = [[Int: Matrix6]](repeating: [:], count: count)
        gradient = [SIMD8<Double>](repeating: .zero, count: count)
    }

    var count: Int { rows.count }

    /// Adds `block` to the diagonal of row `s`, and its gradient.
    mutating func add(_ block: NormalBlock, at s: Int) {
        rows[s][s, default: Matrix6()].add(block.hessian)
        gradient[s] += block.gradient
    }

    /// Adds `m` at (s, t) and its transpose at (t, s).
    mutating func addCross(_ m: Matrix6, at s: Int, _ t: Int) {
        rows[s][t, default: Matrix6()].add(m)
        rows[t][s, default: Matrix6()].add(m.transposed)
    }

    /// Adds `value` to the diagonal of row `s` and `right` to its gradient.
    mutating func addDiagonal(_ value: Double, right: SIMD8<Double>, at s: Int) {
        var block = rows[s][s, default: Matrix6()]
        for i in 0 ..< 6 { block.rows[i][i] += value }
        rows[s][s] = block
        gradient[s] += right
    }

    /// The mean of the diagonal's entries.
    var meanDiagonal: Double {
        guard count > 0 else { return 0 }
        var sum = 0.0
        for (s, row) in rows.enumerated() {
            guard let block = row[s] else { continue }
            for i in 0 ..< 6 { sum += block.rows[i][i] }
        }
        return sum / Double(6 * count)
    }

    /// The step x with H x = −gradient, to a relative residual of `tolerance` (at most
    /// `iterations` conjugate-gradient steps), the products split over up to `threads` threads
    /// (the result is the same whatever their number); nil when a diagonal block is not positive
    /// definite.
    func solve(tolerance: Double = 1e-10, iterations: Int = 1000, threads: Int = 1) -> [SIMD8<Double>]? {
        let n = count
        // The rows' blocks in a fixed order, and each diagonal block's inverse (preconditioner).
        let ordered = rows.map { row in row.keys.sorted().map { ($0, row[$0]!) } }
        var inverses: [Matrix6] = []
        for s in 0 ..< n {
            guard let diagonal = rows[s][s] else { return nil }
            var a = [Double](repeating: 0, count: 36)
            for r in 0 ..< 6 { for c in 0 ..< 6 { a[r * 6 + c] = diagonal.rows[r][c] } }
            var inverse = Matrix6()
            for c in 0 ..< 6 {
                var e = [Double](repeating: 0, count: 6)
                e[c] = 1
                guard let column = PoseStep.solve(a, e, n: 6) else { return nil }
                for r in 0 ..< 6 { inverse.rows[r][c] = column[r] }
            }
            inverses.append(inverse)
        }
        // The blocks in one array, row after row, each as its columns (a block times a vector is
        // then six multiply-adds of whole columns, with no sums across lanes), and where each
        // row's begin.
        let blocks = ordered.flatMap { row in row.map(\.1.transposed) }
        let blockColumns = ordered.flatMap { row in row.map(\.0) }
        let starts = ordered.reduce(into: [0]) { starts, row in starts.append(starts.last! + row.count) }
        let bands = max(1, min(threads, n / 64))
        func multiply(_ x: [SIMD8<Double>]) -> [SIMD8<Double>] {
            [SIMD8<Double>](unsafeUninitializedCapacity: n) { y, initialized in
                let out = SendablePointer(y.baseAddress!)
                DispatchQueue.concurrentPerform(iterations: bands) { band in
                    blocks.withUnsafeBufferPointer { columns in
                        blockColumns.withUnsafeBufferPointer { blockColumn in
                            for s in n * band / bands ..< n * (band + 1) / bands {
                                var sum = SIMD8<Double>.zero
                                for b in starts[s] ..< starts[s + 1] {
                                    let v = x[blockColumn[b]], m = columns[b].rows
                                    for c in 0 ..< 6 { sum += v[c] * m[c] }
                                }
                                (out.base + s).initialize(to: sum)
                            }
                        }
                    }
                }
                initialized = n
            }
        }
        func dot(_ a: [SIMD8<Double>], _ b: [SIMD8<Double>]) -> Double { zip(a, b).reduce(0) { $0 + ($1.0 * $1.1).sum() } }
        var x = [SIMD8<Double>](repeating: .zero, count: n)
        var r = gradient.map { -$0 }
        var z = zip(inverses, r).map { $0.times($1) }
        var p = z
        var rz = dot(r, z)
        let limit = tolerance * tolerance * max(dot(r, r), .leastNormalMagnitude)
        for _ in 0 ..< iterations {
            guard dot(r, r) > limit else { break }
            let q = multiply(p)
            let pq = dot(p, q)
            guard pq > 0 else { break }
            let alpha = rz / pq
            for i in 0 ..< n {
                x[i] += alpha * p[i]
                r[i] -= alpha * q[i]
            }
            z = zip(inverses, r).map { $0.times($1) }
            let next = dot(r, z)
            let beta = next / rz
            rz = next
            for i in 0 ..< n { p[i] = z[i] + beta * p[i] }
        }
        return x
    }
}
