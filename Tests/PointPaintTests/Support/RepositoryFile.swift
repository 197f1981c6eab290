import Foundation

/// Files committed in the repository (sample captures, fixtures), found from this source file's
/// place so tests run from any working directory.
enum RepositoryFile {
    /// The repository's root: three folders above `Tests/PointPaintTests/Support/`.
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0 ..< 4 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// `relative` under the repository's root.
    static func path(_ relative: String) -> String { root + "/" + relative }
}
