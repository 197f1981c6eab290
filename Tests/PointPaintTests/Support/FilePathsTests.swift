import Testing
@testable import PointPaint

/// `FilePaths.parent(of:)`: what `NSString.deletingLastPathComponent` gives for every path it
/// handles, and no trap for the one-character names it traps on; `withoutTrailingSlash`.
@Suite struct FilePathsTests {
    @Test(arguments: [
        ("a", ""), ("x/", ""), ("ab", ""), ("/a", "/"), ("/", "/"), ("aa/b", "aa"), ("./a", "."), ("a//b", "a"),
        ("/x/y/z.ply", "/x/y"), ("dir/sub/", "dir"), ("é/f", "é"), ("", ""),
    ])
    func parentsAreFoundationsWithoutItsTrap(path: String, parent: String) {
        #expect(FilePaths.parent(of: path) == parent)
    }

    @Test(arguments: [("site/", "site"), ("site", "site"), ("/", "/"), ("a/b//", "a/b/"), ("", ""), ("x/", "x")])
    func oneTrailingSlashIsDropped(path: String, name: String) {
        #expect(FilePaths.withoutTrailingSlash(path) == name)
    }
}
