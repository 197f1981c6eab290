import CGLFW
import Foundation

/// Where strategies set their uniforms; `ShaderProgram` is one, tests record calls with another.
@MainActor
public protocol UniformSink: AnyObject {
    /// Sets a float uniform (ignored when the program has no such active uniform).
    func set(_ name: String, _ value: Float)
    /// Sets a vec3 uniform.
    func set(_ name: String, _ value: SIMD3<Float>)
    /// Sets an int or bool or sampler uniform.
    func set(_ name: String, _ value: Int32)
}

/// A linked vertex + fragment program; compile and link failures throw `ShaderError` naming the
/// shader file and line. The program is deleted when the object goes away.
@MainActor
public final class ShaderProgram: UniformSink {
    /// The GL program name.
    let id: GLuint
    /// The files it was built from, for messages.
    public let files: [String]
    private var locations: [String: GLint] = [:]

    /// Compiles and links. Each stage is a list of `(file name, source)` parts, concatenated after
    /// `#version 330 core`; part N (from 1) is preceded by `#line N·10000+1 N`, so a log line
    /// `N:L` (drivers that keep the source-string number) or `0:N·10000+L` (Mesa, which drops it)
    /// both lead back to line L of part N.
    init(vertex: [(String, String)], fragment: [(String, String)]) throws {
        files = (vertex + fragment).map(\.0)
        let vs = try Self.compile(GL_VERTEX_SHADER, parts: vertex)
        defer { glDeleteShader(vs) }
        let fs = try Self.compile(GL_FRAGMENT_SHADER, parts: fragment)
        defer { glDeleteShader(fs) }
        let program = glCreateProgram()
        glAttachShader(program, vs)
        glAttachShader(program, fs)
        glLinkProgram(program)
        if let log = Self.failureLog(program, isProgram: true) {
            throw ShaderError(file: files.joined(separator: " + "), line: nil, log: log)
        }
        id = program
    }

    deinit { glDeleteProgram(id) }

    /// Makes it current.
    func use() { glUseProgram(id) }

    private func location(_ name: String) -> GLint {
        if let l = locations[name] { return l }
        let l = glGetUniformLocation(id, name)
        locations[name] = l
        return l
    }

    /// Sets a float uniform.
    public func set(_ name: String, _ value: Float) { glUniform1f(location(name), value) }
    /// Sets a vec3 uniform.
    public func set(_ name: String, _ value: SIMD3<Float>) { glUniform3f(location(name), value.x, value.y, value.z) }
    /// Sets an int, bool or sampler uniform.
    public func set(_ name: String, _ value: Int32) { glUniform1i(location(name), value) }
    /// Sets an ivec2 uniform.
    func set(_ name: String, _ value: SIMD2<Int32>) { glUniform2i(location(name), value.x, value.y) }
    /// Sets a mat4 uniform.
    func set(_ name: String, _ value: Matrix4x4f) {
        value.floats.withUnsafeBufferPointer { glUniformMatrix4fv(location(name), 1, GLboolean(GL_FALSE), $0.baseAddress) }
    }

    private static func compile(_ stage: Int32, parts: [(String, String)]) throws -> GLuint {
        let shader = glCreateShader(GLe(stage))
        var texts = ["#version 330 core\n"]
        for (i, part) in parts.enumerated() { texts.append("#line \((i + 1) * Self.lineStride + 1) \(i + 1)\n" + part.1 + "\n") }
        let cStrings = texts.map { strdup($0) }
        defer { cStrings.forEach { free($0) } }
        var pointers = cStrings.map { UnsafePointer<GLchar>($0) }
        glShaderSource(shader, GLsizei(pointers.count), &pointers, nil)
        glCompileShader(shader)
        if let log = Self.failureLog(shader, isProgram: false) {
            throw Self.error(log: log, parts: parts.map(\.0))
        }
        return shader
    }

    /// Line numbers reserved for each part of a stage.
    nonisolated static let lineStride = 10_000

    /// Turns a driver log (Mesa writes `N:LINE(COL): error: …`, AMD and Intel `ERROR: N:LINE: …`,
    /// NVIDIA `N(LINE) : error C…: …`) into an error naming the part's file.
    nonisolated static func error(log: String, parts: [String]) -> ShaderError {
        var file = parts.last ?? "shader", line: Int?
        var lines: [String] = []
        for raw in log.split(whereSeparator: \.isNewline) {
            var text = String(raw)
            // `N:L` with an optional `(COL)`, else NVIDIA's `N(L)`.
            var place: (range: Range<String.Index>, source: Substring, line: Substring, column: Substring?)?
            if let m = text.firstMatch(of: /(\d+):(\d+)(\(\d+\))?/) {
                place = (m.range, m.1, m.2, m.3)
            } else if let m = text.firstMatch(of: /(\d+)\((\d+)\)/) {
                place = (m.range, m.1, m.2, nil)
            }
            if let place, let n = Int(place.source), var l = Int(place.line) {
                let part = l / lineStride
                l %= lineStride
                let index = part >= 1 && part <= parts.count ? part : n
                let name = index >= 1 && index <= parts.count ? parts[index - 1] : "source \(n)"
                if line == nil { file = name; line = l }
                text.replaceSubrange(place.range, with: "\(name):\(l)\(place.column ?? "")")
            }
            lines.append(text)
        }
        return ShaderError(file: file, line: line, log: lines.joined(separator: "\n"))
    }

    /// nil when the shader compiled (the program linked); otherwise deletes it and returns the
    /// driver's log.
    private static func failureLog(_ object: GLuint, isProgram: Bool) -> String? {
        let getInteger = isProgram ? glGetProgramiv : glGetShaderiv
        var ok: GLint = 0
        getInteger(object, GLe(isProgram ? GL_LINK_STATUS : GL_COMPILE_STATUS), &ok)
        guard ok == 0 else { return nil }
        var length: GLint = 0
        getInteger(object, GLe(GL_INFO_LOG_LENGTH), &length)
        var buffer = [GLchar](repeating: 0, count: Int(max(length, 1)) + 1)
        (isProgram ? glGetProgramInfoLog : glGetShaderInfoLog)(object, GLsizei(buffer.count), nil, &buffer)
        if isProgram { glDeleteProgram(object) } else { glDeleteShader(object) }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// The GLSL sources: embedded at build time, reloadable from a `Shaders/` folder, and the
/// programs built from them, cached by their file names.
@MainActor
final class ShaderLibrary {
    private(set) var sources: [String: String]
    private var programs: [String: ShaderProgram] = [:]

    /// Starts with the sources embedded in the binary.
    init(sources: [String: String] = EmbeddedShaders.sources) {
        self.sources = sources
    }

    /// The program for a strategy's shaders (see `files(of:graded:)`).
    func program(for shaders: StrategyShaders, graded: Bool) throws -> ShaderProgram {
        let files = Self.files(of: shaders, graded: graded)
        return try program(vertex: files.vertex, fragment: files.fragment)
    }

    /// The files a strategy's program is built from: the `.grading` style is `grading.glsl` when
    /// `graded`, else `ungraded.glsl` (a pass-through, so ungraded frames pay nothing for the cube);
    /// `.heatMap` is always the pass-through.
    nonisolated static func files(of shaders: StrategyShaders, graded: Bool) -> (vertex: [String], fragment: [String]) {
        let style = switch shaders.style {
        case .grading: graded ? "grading.glsl" : "ungraded.glsl"
        case .gamut: "gamut.glsl"
        case .heatMap: "ungraded.glsl"
        }
        return ([shaders.vertex], [style, shaders.fragment])
    }

    /// The program made of these files (each stage's parts in order), built on first use.
    func program(vertex: [String], fragment: [String]) throws -> ShaderProgram {
        let key = (vertex + ["|"] + fragment).joined(separator: ",")
        if let p = programs[key] { return p }
        func parts(_ names: [String]) throws -> [(String, String)] {
            try names.map { name in
                guard let text = sources[name] else {
                    throw ShaderError(file: name, line: nil, log: "no such shader (have: \(sources.keys.sorted().joined(separator: ", ")))")
                }
                return (name, text)
            }
        }
        let program = try ShaderProgram(vertex: parts(vertex), fragment: parts(fragment))
        programs[key] = program
        return program
    }

    /// Rereads every shader from `directory` (default `Shaders/` under the current directory)
    /// and drops the built programs, so the next frame rebuilds them. On failure nothing changes.
    /// - Returns: how many files were read.
    @discardableResult
    func reload(from directory: String = "Shaders") throws -> Int {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter { !$0.hasPrefix(".") && !$0.hasSuffix(".md") }
        var fresh: [String: String] = [:]
        for name in names {
            fresh[name] = try String(contentsOfFile: directory + "/" + name, encoding: .utf8)
        }
        sources = fresh
        programs = [:]
        return fresh.count
    }

    /// Replaces the sources (tests) and drops the built programs.
    func replaceSources(_ fresh: [String: String]) {
        sources = fresh
        programs = [:]
    }
}
