import Foundation

/// A fresh directory under the system's temporary folder, removed when the value is released.
final class TemporaryDirectory: Sendable {
    let path: String

    init(_ label: String = "pointpaint-test") {
        path = NSTemporaryDirectory() + "/\(label)-\(UUID().uuidString)"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// A path inside the directory.
    func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    /// Writes text to a file inside the directory, creating folders on the way.
    func write(_ text: String, to name: String) throws {
        try write(Data(text.utf8), to: name)
    }

    /// Writes bytes to a file inside the directory, creating folders on the way.
    func write(_ data: Data, to name: String) throws {
        let full = file(name)
        try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try data.write(to: URL(fileURLWithPath: full))
    }
}
