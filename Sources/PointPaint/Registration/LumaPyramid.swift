/// A frame's Y′ (luma) plane as photometric registration samples it: 8-bit levels at a few
/// scales, each half the size of the one before (2 × 2 means). The finest level is the image
/// reduced by a whole factor (`base`) to at most `maximumWidth` pixels across, so a frame costs
/// about 0.4 MB however large its image is.
struct LumaPyramid: Sendable {
    /// One scale: `width` × `height` levels, row by row.
    struct Level: Sendable {
        var width: Int, height: Int
        var values: [UInt8]
    }

    /// The scales, finest first.
    let levels: [Level]
    /// The image's width and height in pixels, and the factor from image pixels to the finest level's.
    let imageWidth: Int, imageHeight: Int, base: Int

    /// The widest finest level kept.
    static let maximumWidth = 640

    /// The pyramid of `image`'s luma, `count` levels (fewer when the image is too small to halve).
    init(image: YCbCrImage, count: Int) {
        imageWidth = image.width
        imageHeight = image.height
        let base = max(1, (image.width + Self.maximumWidth - 1) / Self.maximumWidth)
        self.base = base
        let width = max(1, image.width / base), height = max(1, image.height / base)
        var finest = [UInt8](repeating: 0, count: width * height)
        image.luma.withUnsafeBytes { raw in
            let area = base * base
            for y in 0 ..< height {
                for x in 0 ..< width {
                    var sum = 0
                    for j in 0 ..< base {
                        let row = image.lumaOffset + (y * base + j) * image.lumaStride + x * base
                        for i in 0 ..< base { sum += Int(raw[row + i]) }
                    }
                    finest[y * width + x] = UInt8((sum + area / 2) / area)
                }
            }
        }
        var levels = [Level(width: width, height: height, values: finest)]
        while levels.count < count, let last = levels.last, last.width >= 16, last.height >= 16 {
            let w = last.width / 2, h = last.height / 2
            var values = [UInt8](repeating: 0, count: w * h)
            for y in 0 ..< h {
                for x in 0 ..< w {
                    let a = 2 * y * last.width + 2 * x
                    let sum = Int(last.values[a]) + Int(last.values[a + 1]) + Int(last.values[a + last.width]) + Int(last.values[a + last.width + 1])
                    values[y * w + x] = UInt8((sum + 2) / 4)
                }
            }
            levels.append(Level(width: w, height: h, values: values))
        }
        self.levels = levels
    }

    /// How many image pixels one pixel of `level` spans.
    func scale(_ level: Int) -> Double { Double(base << min(level, levels.count - 1)) }

    /// The luma (0…1) at image pixel position (u, v) (pixel centres at half-integers, as
    /// `Camera.project` places points) on `level` (the coarsest there is when past it),
    /// interpolated bilinearly, and its derivatives along u and v per image pixel (central
    /// differences a level pixel apart; zero when `gradient` is false); nil within a level pixel
    /// and a half of the edge, whether or not the gradient is asked for.
    func sample(level: Int, u: Double, v: Double, gradient: Bool = true) -> (value: Double, du: Double, dv: Double)? {
        let index = min(level, levels.count - 1)
        let width = levels[index].width, height = levels[index].height
        // One division and multiplications by reciprocals instead of five divisions (with the
        // caller's reciprocal depth, `register --cloud` went from 0.40–0.53 s to 0.37–0.43 s).
        let s = scale(level), inverse = 1 / s
        let x = u * inverse - 0.5, y = v * inverse - 0.5
        guard x >= 1, y >= 1, x < Double(width - 2), y < Double(height - 2) else { return nil }
        let x0 = Int(x), y0 = Int(y)
        let fx = x - Double(x0), fy = y - Double(y0)
        return levels[index].values.withUnsafeBufferPointer { values in
            // Row `j`'s value interpolated at x + i, then two rows' interpolated at y: the
            // bilinear value at (x + i, y + j), in levels of 255. The five bilinear values share
            // eight horizontal interpolations.
            func row(_ i: Int, _ j: Int) -> Double {
                let at = (y0 + j) * width + x0 + i
                return Double(values[at]) * (1 - fx) + Double(values[at + 1]) * fx
            }
            func column(_ top: Double, _ bottom: Double) -> Double { top * (1 - fy) + bottom * fy }
            let centre = (row(0, 0), row(0, 1))
            let value = column(centre.0, centre.1) * (1.0 / 255)
            guard gradient else { return (value, 0, 0) }
            let right = column(row(1, 0), row(1, 1)), left = column(row(-1, 0), row(-1, 1))
            let below = column(centre.1, row(0, 2)), above = column(row(0, -1), centre.0)
            let perPixel = inverse * (0.5 / 255)
            return (value, (right - left) * perPixel, (below - above) * perPixel)
        }
    }
}
