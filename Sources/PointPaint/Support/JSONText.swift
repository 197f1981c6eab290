import Foundation

/// Pieces of the JSON text PointPaint writes (`capture.json`, `poses.json`).
enum JSONText {
    /// `s` as a JSON string: quoted, with quotes, backslashes and control characters escaped.
    static func quote(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
