/// How much one observation of a point counts: the product of four factors in 0…1, each what
/// makes a view of a surface good or bad, quantised to a whole number 1…255 so that weighted
/// sums stay exact integers (and painted halves still merge to the whole).
///
/// - **Incidence**: |cos θ| between the surface normal and the ray to the camera (at least 0.05):
///   a grazing view smears a surface's colour over few pixels and shows specular sheen.
/// - **Footprint**: (r / 4 px)², at most 1, where r = f · spacing / depth is the radius in pixels
///   of the patch a point stands for: a point seen over fewer pixels is seen at a lower
///   resolution (its colour mixes with its neighbours').
/// - **Border**: rises from 0 at the image's edge to 1 at 5 % of its shorter side inwards (lens
///   shading, distortion and motion blur are worst there; a sampler reads clamped pixels).
/// - **Clipping**: falls to 0 as the encoded colour's brightest channel nears full code (a clipped
///   highlight has lost its hue) or its luma nears zero (crushed shadows).
public enum ObservationWeight {
    /// The largest weight: an observation head-on, near, inside the image and well exposed.
    public static let full: UInt8 = 255

    /// Incidence factor from the unit normal `n` (either orientation) and the vector `toCamera`
    /// from the point to the camera's centre (any length).
    @inline(__always)
    public static func incidence(normal n: SIMD3<Float>, toCamera v: SIMD3<Float>) -> Float {
        let length = (v * v).sum().squareRoot()
        guard length > 0, (n * n).sum() > 0.5 else { return 1 }  // no normal: no opinion
        return max(abs((n * v).sum()) / length, 0.05)
    }

    /// Footprint factor of a point of `spacing` metres seen at `depth` metres with focal length
    /// `focal` pixels.
    @inline(__always)
    public static func footprint(spacing: Float, depth: Float, focal: Float) -> Float {
        let r = focal * spacing / depth / 4
        return r.isFinite ? min(r * r, 1) : 1
    }

    /// Border factor of the pixel position (`u`, `v`) in an image of `width` × `height`.
    @inline(__always)
    public static func border(u: Float, v: Float, width: Float, height: Float) -> Float {
        let margin = 0.05 * min(width, height)
        let d = min(u, width - u, v, height - v)
        let x = min(max(d / margin, 0), 1)
        return x * x * (3 - 2 * x)
    }

    /// Clipping factor of an encoded (gamma) colour, channels nominally 0…1.
    @inline(__always)
    public static func clipping(encoded c: SIMD3<Float>) -> Float {
        let highlight = min(max((0.995 - c.max()) / 0.045, 0), 1)
        let luma = 0.2126 * c.x + 0.7152 * c.y + 0.0722 * c.z
        let shadow = min(max((luma - 0.005) / 0.045, 0), 1)
        let w = highlight * shadow
        return w.isNaN ? 0 : w
    }

    /// The product of the factors in 0…1, quantised to 1…255 (never 0: a point seen only badly is
    /// still seen, and still painted).
    @inline(__always)
    public static func quantised(_ w: Float) -> UInt8 {
        guard w.isFinite else { return 1 }
        return UInt8(min(max((w * 255).rounded(), 1), 255))
    }
}
