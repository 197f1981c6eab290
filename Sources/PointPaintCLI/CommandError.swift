/// A command's run-time refusal that concerns its options rather than a file's contents (for
/// example a `--frames` range that selects none of the capture's frames): printed as one line,
/// `Error: MESSAGE`, without the usage text a `ValidationError` brings.
struct CommandError: Error, CustomStringConvertible {
    /// The line printed.
    var description: String

    /// An error printed as `message`.
    init(_ message: String) {
        description = message
    }
}
