import Foundation

/// A 4×4 single-precision matrix, column-major as OpenGL expects it: the viewer's camera and
/// projection. Capture poses and intrinsics use the core library's double-precision `Matrix4x4`.
public struct Matrix4x4f: Sendable, Equatable {
    /// The four columns.
    public var c0, c1, c2, c3: SIMD4<Float>

    /// A matrix from its columns.
    public init(_ c0: SIMD4<Float>, _ c1: SIMD4<Float>, _ c2: SIMD4<Float>, _ c3: SIMD4<Float>) {
        self.c0 = c0
        self.c1 = c1
        self.c2 = c2
        self.c3 = c3
    }

    /// The identity.
    public static let identity = Matrix4x4f(SIMD4(1, 0, 0, 0), SIMD4(0, 1, 0, 0), SIMD4(0, 0, 1, 0), SIMD4(0, 0, 0, 1))

    /// A translation.
    public static func translation(_ t: SIMD3<Float>) -> Matrix4x4f {
        Matrix4x4f(SIMD4(1, 0, 0, 0), SIMD4(0, 1, 0, 0), SIMD4(0, 0, 1, 0), SIMD4(t.x, t.y, t.z, 1))
    }

    /// A right-handed perspective projection (OpenGL clip space, depth −1…1).
    /// - Parameters: fovY: vertical field of view in radians; aspect: width / height.
    public static func perspective(fovY: Float, aspect: Float, near: Float, far: Float) -> Matrix4x4f {
        let f = 1 / tan(fovY / 2)
        return Matrix4x4f(SIMD4(f / aspect, 0, 0, 0), SIMD4(0, f, 0, 0),
                          SIMD4(0, 0, (far + near) / (near - far), -1),
                          SIMD4(0, 0, 2 * far * near / (near - far), 0))
    }

    /// The matrix times a column vector.
    public static func * (m: Matrix4x4f, v: SIMD4<Float>) -> SIMD4<Float> {
        m.c0 * v.x + m.c1 * v.y + m.c2 * v.z + m.c3 * v.w
    }

    /// The product `a · b`.
    public static func * (a: Matrix4x4f, b: Matrix4x4f) -> Matrix4x4f {
        Matrix4x4f(a * b.c0, a * b.c1, a * b.c2, a * b.c3)
    }

    /// The 16 floats, column by column.
    public var floats: [Float] {
        [c0.x, c0.y, c0.z, c0.w, c1.x, c1.y, c1.z, c1.w, c2.x, c2.y, c2.z, c2.w, c3.x, c3.y, c3.z, c3.w]
    }
}

/// A unit quaternion for rotations (x, y, z vector part, w scalar part).
public struct Quat: Sendable, Equatable {
    /// Vector part.
    public var v: SIMD3<Float>
    /// Scalar part.
    public var w: Float

    /// A quaternion from its parts.
    public init(v: SIMD3<Float>, w: Float) {
        self.v = v
        self.w = w
    }

    /// No rotation.
    public static let identity = Quat(v: .zero, w: 1)

    /// A rotation of `angle` radians about `axis` (normalised here; a zero axis gives identity).
    public init(angle: Float, axis: SIMD3<Float>) {
        let length = (axis * axis).sum().squareRoot()
        guard length > 0 else { self = .identity; return }
        let s = sin(angle / 2)
        self.init(v: axis / length * s, w: cos(angle / 2))
    }

    /// The rotation `a` after `b` (`(a * b).rotate(p) == a.rotate(b.rotate(p))`).
    public static func * (a: Quat, b: Quat) -> Quat {
        Quat(v: a.w * b.v + b.w * a.v + cross(a.v, b.v), w: a.w * b.w - dot(a.v, b.v))
    }

    /// The same rotation rescaled to unit length (guards against drift).
    public var normalized: Quat {
        let n = ((v * v).sum() + w * w).squareRoot()
        return n > 0 ? Quat(v: v / n, w: w / n) : .identity
    }

    /// The inverse rotation.
    public var conjugate: Quat { Quat(v: -v, w: w) }

    /// `p` rotated.
    public func rotate(_ p: SIMD3<Float>) -> SIMD3<Float> {
        let t = 2 * cross(v, p)
        return p + w * t + cross(v, t)
    }

    /// The rotation as a 4×4 matrix.
    public var matrix: Matrix4x4f {
        let x = rotate(SIMD3(1, 0, 0)), y = rotate(SIMD3(0, 1, 0)), z = rotate(SIMD3(0, 0, 1))
        return Matrix4x4f(SIMD4(x, 0), SIMD4(y, 0), SIMD4(z, 0), SIMD4(0, 0, 0, 1))
    }
}

/// The dot product.
@inline(__always)
func dot(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> Float { (a * b).sum() }

/// The cross product.
@inline(__always)
func cross(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> SIMD3<Float> {
    SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
}

/// The Euclidean length.
@inline(__always)
func length(_ a: SIMD3<Float>) -> Float { dot(a, a).squareRoot() }

/// `a` scaled to unit length (zero stays zero).
@inline(__always)
func normalize(_ a: SIMD3<Float>) -> SIMD3<Float> {
    let l = length(a)
    return l > 0 ? a / l : a
}
