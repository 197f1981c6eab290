/// Path arithmetic on plain strings, for what Foundation's `NSString` gets wrong: its
/// `deletingLastPathComponent` traps on a one-character relative path ("a", "x/"), so that
/// `synth -o a` crashed (Swift 6.3's Foundation on Linux).
package enum FilePaths {
    /// The folder part of `path`, as `NSString.deletingLastPathComponent` means it: "" for a
    /// name without a folder, "/" for one in the root, the path before the last "/" otherwise
    /// (trailing slashes ignored on both).
    static func parent(of path: String) -> String {
        var p = Substring(path)
        while p.count > 1, p.hasSuffix("/") { p = p.dropLast() }
        guard let slash = p.lastIndex(of: "/") else { return "" }
        var parent = p[..<slash]
        while parent.count > 1, parent.hasSuffix("/") { parent = parent.dropLast() }
        return parent.isEmpty ? "/" : String(parent)
    }

    /// `path` without one trailing slash ("/" stays "/"): the name a folder is written under.
    package static func withoutTrailingSlash(_ path: String) -> String {
        path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }
}
