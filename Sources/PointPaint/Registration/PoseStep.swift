import Foundation

/// The arithmetic both refinements share (docs/registration.md): a pose moves by a left
/// perturbation about a fixed centre, p ↦ c + exp(ω)(p − c) + v, a twist (ω, v) of six numbers;
/// each frame's least-squares problem is held as 6 × 6 normal equations and solved by Cholesky
/// factorisation.
enum PoseStep {
    /// `body(k)` for every k below `count`, on up to `threads` threads, the results in order
    /// (each is computed alone, so they do not depend on the thread count).
    static func inOrder<T: Sendable>(count: Int, threads: Int, _ body: @Sendable (Int) -> T) -> [T] {
        guard count > 0 else { return [] }
        let results = UnsafeMutableBufferPointer<T?>.allocate(capacity: count)
        results.initialize(repeating: nil)
        defer {
            _ = results.deinitialize()
            results.deallocate()
        }
        let slots = SendablePointer(results.baseAddress!)
        let workers = max(1, min(threads, count))
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for k in Swift.stride(from: worker, to: count, by: workers) { slots.base[k] = body(k) }
        }
        return results.map { $0! }
    }

    /// `pose` moved by the twist (ω, v) about `centre`: exp(ω) turns about the axis ω by |ω|
    /// radians, then v translates, both applied after the pose (in world space).
    static func apply(omega: SIMD3<Double>, v: SIMD3<Double>, about centre: SIMD3<Double>, to pose: Matrix4x4) -> Matrix4x4 {
        let angle = (omega * omega).sum().squareRoot()
        let turn = angle > 0 ? Matrix4x4(axis: omega / angle, angle: angle) : .identity
        let moved = turn.transformPoint(-centre) + centre + v
        let update = Matrix4x4(columns: turn.columns.0, turn.columns.1, turn.columns.2, SIMD4(moved, 1))
        return update * pose
    }

    /// ∂(n · p)/∂(ω, v) for a point p (given relative to the centre) that moves with a left
    /// perturbation of its pose about the centre, n fixed: (p × n, n), and two zeros.
    static func jacobian(point p: SIMD3<Double>, direction n: SIMD3<Double>) -> SIMD8<Double> {
        SIMD8(p.y * n.z - p.z * n.y, p.z * n.x - p.x * n.z, p.x * n.y - p.y * n.x, n.x, n.y, n.z, 0, 0)
    }

    /// The rigid transform `e` as a twist about `centre`: its rotation vector ω (axis times
    /// angle, radians) and v with e(p) = centre + R(p − centre) + v, as (ω, v, 0, 0).
    static func twist(_ e: Matrix4x4, about centre: SIMD3<Double>) -> SIMD8<Double> {
        let angle = e.rotationAngle
        let axis = SIMD3(e[2, 1] - e[1, 2], e[0, 2] - e[2, 0], e[1, 0] - e[0, 1])
        let length = (axis * axis).sum().squareRoot()
        let omega = length > 0 ? axis / length * angle : .zero
        let v = e.transformPoint(centre) - centre
        return SIMD8(omega.x, omega.y, omega.z, v.x, v.y, v.z, 0, 0)
    }

    /// Solves the symmetric positive definite system `a x = b` of order `n` (`a` row by row) by
    /// Cholesky factorisation; nil when it is not positive definite.
    static func solve(_ a: [Double], _ b: [Double], n: Int) -> [Double]? {
        var l = a
        for j in 0 ..< n {
            var d = l[j * n + j]
            for k in 0 ..< j { d -= l[j * n + k] * l[j * n + k] }
            guard d > 0 else { return nil }
            let root = d.squareRoot()
            l[j * n + j] = root
            for i in j + 1 ..< n {
                var s = l[i * n + j]
                for k in 0 ..< j { s -= l[i * n + k] * l[j * n + k] }
                l[i * n + j] = s / root
            }
        }
        var y = b
        for i in 0 ..< n {
            for k in 0 ..< i { y[i] -= l[i * n + k] * y[k] }
            y[i] /= l[i * n + i]
        }
        for i in stride(from: n - 1, through: 0, by: -1) {
            for k in i + 1 ..< n { y[i] -= l[k * n + i] * y[k] }
            y[i] /= l[i * n + i]
        }
        return y
    }
}

/// A 6 × 6 block of the normal equations, a row a SIMD vector (the last two lanes unused), held
/// inline (an array of rows made every block a heap allocation, and the conjugate-gradient solve
/// of 300 frames spent most of its time reaching through them).
struct Matrix6: Sendable {
    /// The six rows, by index.
    struct Rows: Sendable {
        private var storage: (SIMD8<Double>, SIMD8<Double>, SIMD8<Double>, SIMD8<Double>, SIMD8<Double>, SIMD8<Double>) =
            (.zero, .zero, .zero, .zero, .zero, .zero)

        subscript(r: Int) -> SIMD8<Double> {
            get {
                precondition(r >= 0 && r < 6, "Matrix6 row \(r)")
                return withUnsafeBytes(of: storage) { $0.load(fromByteOffset: r * MemoryLayout<SIMD8<Double>>.stride, as: SIMD8<Double>.self) }
            }
            set {
                precondition(r >= 0 && r < 6, "Matrix6 row \(r)")
                withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: newValue, toByteOffset: r * MemoryLayout<SIMD8<Double>>.stride, as: SIMD8<Double>.self) }
            }
        }
    }

    var rows = Rows()

    subscript(r: Int) -> SIMD8<Double> { rows[r] }

    /// Adds w · a · bᵀ.
    mutating func addOuter(_ a: SIMD8<Double>, _ b: SIMD8<Double>, weight w: Double) {
        let wb = w * b
        for r in 0 ..< 6 { rows[r] += a[r] * wb }
    }

    /// Adds `scale` times `other`.
    mutating func add(_ other: Matrix6, scale: Double = 1) {
        for r in 0 ..< 6 { rows[r] += scale * other.rows[r] }
    }

    /// The transpose.
    var transposed: Matrix6 {
        var t = Matrix6()
        for r in 0 ..< 6 {
            for c in 0 ..< 6 { t.rows[c][r] = rows[r][c] }
        }
        return t
    }

    /// This matrix times `x`.
    func times(_ x: SIMD8<Double>) -> SIMD8<Double> {
        var y = SIMD8<Double>.zero
        for r in 0 ..< 6 { y[r] = (rows[r] * x).sum() }
        return y
    }
}

/// A frame's share of the normal equations: Σ w · j · jᵀ and Σ w · j · r.
struct NormalBlock: Sendable {
    var hessian = Matrix6()
    var gradient = SIMD8<Double>.zero

    mutating func add(_ j: SIMD8<Double>, weight w: Double, residual r: Double) {
        hessian.addOuter(j, j, weight: w)
        gradient += (w * r) * j
    }
}
