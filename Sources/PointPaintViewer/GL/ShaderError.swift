/// A shader that failed to compile or a program that failed to link: the shader file, the line
/// the driver blamed and its log, so a person sees at once what to fix.
public struct ShaderError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The shader file (a name in `Shaders/`), or the program's files for link errors.
    public var file: String
    /// The line in `file` the first error points at, when the log names one.
    public var line: Int?
    /// The driver's log, with source-string numbers replaced by file names.
    public var log: String

    /// Creates an error.
    public init(file: String, line: Int?, log: String) {
        self.file = file
        self.line = line
        self.log = log
    }

    /// `file:line: log` on one line (the log's first lines joined).
    public var description: String {
        let place = line.map { "\(file):\($0)" } ?? file
        let text = log.split(whereSeparator: \.isNewline).prefix(4).joined(separator: " | ")
        return "\(place): \(text)"
    }
}
