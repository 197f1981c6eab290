import CGLFW
import PointPaint

/// Small conveniences over the C OpenGL API: enum conversions and typed uploads.
@inline(__always)
func GLe(_ value: Int32) -> GLenum { GLenum(value) }

/// One OpenGL object name, made by a `glGen…` function and freed by the matching `glDelete…`
/// when this goes away. The GL object classes below each own one; like them it must be released
/// on the thread whose context made it (the main actor).
final class GLName {
    /// The name.
    let id: GLuint
    private let delete: (GLsizei, UnsafePointer<GLuint>?) -> Void

    /// Makes a name with `generate`, to be freed with `delete`.
    init(_ generate: (GLsizei, UnsafeMutablePointer<GLuint>?) -> Void, delete: @escaping (GLsizei, UnsafePointer<GLuint>?) -> Void) {
        var name: GLuint = 0
        generate(1, &name)
        id = name
        self.delete = delete
    }

    deinit {
        var name = id
        delete(1, &name)
    }
}

/// A buffer object.
@MainActor
final class GLBuffer {
    private let name = GLName(glGenBuffers, delete: glDeleteBuffers)
    /// The buffer name.
    var id: GLuint { name.id }
    /// Bytes allocated with `allocate`.
    private(set) var capacity = 0

    /// Binds the buffer to `target`.
    func bind(_ target: Int32 = GL_ARRAY_BUFFER) { glBindBuffer(GLe(target), id) }

    /// Allocates `bytes` (contents undefined) for `usage`.
    func allocate(bytes: Int, target: Int32 = GL_ARRAY_BUFFER, usage: Int32 = GL_DYNAMIC_DRAW) {
        bind(target)
        glBufferData(GLe(target), GLsizeiptr(bytes), nil, GLe(usage))
        capacity = bytes
    }

    /// Fills the buffer with `values`, replacing its storage.
    func upload<T>(_ values: [T], target: Int32 = GL_ARRAY_BUFFER, usage: Int32 = GL_STATIC_DRAW) {
        bind(target)
        values.withUnsafeBytes { glBufferData(GLe(target), GLsizeiptr($0.count), $0.baseAddress, GLe(usage)) }
        capacity = values.count * MemoryLayout<T>.stride
    }

    /// Writes raw bytes at `offset`.
    func update(offset: Int, bytes: UnsafeRawBufferPointer, target: Int32 = GL_ARRAY_BUFFER) {
        guard bytes.count > 0 else { return }
        precondition(offset >= 0 && offset + bytes.count <= capacity, "buffer update outside the allocation")
        bind(target)
        glBufferSubData(GLe(target), GLintptr(offset), GLsizeiptr(bytes.count), bytes.baseAddress)
    }
}

/// A vertex array object.
@MainActor
final class GLVertexArray {
    private let name = GLName(glGenVertexArrays, delete: glDeleteVertexArrays)
    /// The vertex array name.
    var id: GLuint { name.id }

    /// Binds it.
    func bind() { glBindVertexArray(id) }

    /// Declares float attribute `index` read from the bound array buffer.
    func floatAttribute(_ index: GLuint, components: Int32, stride: Int, offset: Int, divisor: GLuint = 0) {
        glEnableVertexAttribArray(index)
        glVertexAttribPointer(index, components, GLe(GL_FLOAT), GLboolean(GL_FALSE), GLsizei(stride),
                              UnsafeRawPointer(bitPattern: offset))
        glVertexAttribDivisor(index, divisor)
    }
}

/// A 3D RGB float texture holding a colour cube (x = red, y = green, z = blue).
@MainActor
final class GLTexture3D {
    private let name = GLName(glGenTextures, delete: glDeleteTextures)
    /// The texture name.
    var id: GLuint { name.id }
    /// Lattice points per axis of the uploaded cube (0 before the first upload).
    private(set) var size = 0

    /// Uploads `size³` RGB entries, red fastest, with linear filtering and edge clamping, so the
    /// hardware's trilinear filter does the cube's interpolation.
    func upload(size: Int, entries: [SIMD3<Float>]) {
        precondition(entries.count == size * size * size, "a \(size)³ cube needs \(size * size * size) entries")
        var packed = [Float](repeating: 0, count: entries.count * 3)
        for (i, e) in entries.enumerated() {
            packed[3 * i] = e.x
            packed[3 * i + 1] = e.y
            packed[3 * i + 2] = e.z
        }
        glBindTexture(GLe(GL_TEXTURE_3D), id)
        glPixelStorei(GLe(GL_UNPACK_ALIGNMENT), 1)
        packed.withUnsafeBytes {
            glTexImage3D(GLe(GL_TEXTURE_3D), 0, GL_RGB16F, GLsizei(size), GLsizei(size), GLsizei(size), 0,
                         GLe(GL_RGB), GLe(GL_FLOAT), $0.baseAddress)
        }
        for parameter in [GL_TEXTURE_MIN_FILTER, GL_TEXTURE_MAG_FILTER] {
            glTexParameteri(GLe(GL_TEXTURE_3D), GLe(parameter), GL_LINEAR)
        }
        for parameter in [GL_TEXTURE_WRAP_S, GL_TEXTURE_WRAP_T, GL_TEXTURE_WRAP_R] {
            glTexParameteri(GLe(GL_TEXTURE_3D), GLe(parameter), GL_CLAMP_TO_EDGE)
        }
        self.size = size
    }
}

/// An offscreen framebuffer with an RGBA8 colour and a 24-bit depth renderbuffer.
@MainActor
final class GLFramebuffer {
    private let framebuffer = GLName(glGenFramebuffers, delete: glDeleteFramebuffers)
    private let color = GLName(glGenRenderbuffers, delete: glDeleteRenderbuffers)
    private let depth = GLName(glGenRenderbuffers, delete: glDeleteRenderbuffers)
    /// The framebuffer name.
    var id: GLuint { framebuffer.id }
    /// Size in pixels.
    let width: Int, height: Int

    /// Creates and checks the framebuffer; throws when the driver rejects it.
    init(width: Int, height: Int) throws {
        self.width = width
        self.height = height
        glBindFramebuffer(GLe(GL_FRAMEBUFFER), id)
        glBindRenderbuffer(GLe(GL_RENDERBUFFER), color.id)
        glRenderbufferStorage(GLe(GL_RENDERBUFFER), GLe(GL_RGBA8), GLsizei(width), GLsizei(height))
        glFramebufferRenderbuffer(GLe(GL_FRAMEBUFFER), GLe(GL_COLOR_ATTACHMENT0), GLe(GL_RENDERBUFFER), color.id)
        glBindRenderbuffer(GLe(GL_RENDERBUFFER), depth.id)
        glRenderbufferStorage(GLe(GL_RENDERBUFFER), GLe(GL_DEPTH_COMPONENT24), GLsizei(width), GLsizei(height))
        glFramebufferRenderbuffer(GLe(GL_FRAMEBUFFER), GLe(GL_DEPTH_ATTACHMENT), GLe(GL_RENDERBUFFER), depth.id)
        let status = glCheckFramebufferStatus(GLe(GL_FRAMEBUFFER))
        guard status == GLe(GL_FRAMEBUFFER_COMPLETE) else {
            throw PointPaintError(.unsupported, "the offscreen framebuffer is incomplete (status 0x\(String(status, radix: 16)))")
        }
    }

    /// Binds it for drawing and reading.
    func bind() { glBindFramebuffer(GLe(GL_FRAMEBUFFER), id) }

    /// The colour attachment as top-to-bottom RGB rows.
    func readRGB() -> [UInt8] {
        bind()
        glReadBuffer(GLe(GL_COLOR_ATTACHMENT0))
        glPixelStorei(GLe(GL_PACK_ALIGNMENT), 1)
        var raw = [UInt8](repeating: 0, count: width * height * 3)
        raw.withUnsafeMutableBytes {
            glReadPixels(0, 0, GLsizei(width), GLsizei(height), GLe(GL_RGB), GLe(GL_UNSIGNED_BYTE), $0.baseAddress)
        }
        // OpenGL's rows start at the bottom; PNG's at the top.
        let row = width * 3
        var flipped = [UInt8](repeating: 0, count: raw.count)
        for y in 0 ..< height {
            flipped.replaceSubrange(y * row ..< (y + 1) * row, with: raw[(height - 1 - y) * row ..< (height - y) * row])
        }
        return flipped
    }
}

/// A 2D texture read with `texelFetch` (nearest, clamped): a render target's colour or depth.
@MainActor
final class GLTexture2D {
    private let name = GLName(glGenTextures, delete: glDeleteTextures)
    /// The texture name.
    var id: GLuint { name.id }

    /// Allocates `width × height` texels of `internalFormat` (contents undefined).
    init(width: Int, height: Int, internalFormat: Int32, format: Int32, type: Int32) {
        glBindTexture(GLe(GL_TEXTURE_2D), id)
        glTexImage2D(GLe(GL_TEXTURE_2D), 0, internalFormat, GLsizei(width), GLsizei(height), 0, GLe(format), GLe(type), nil)
        for parameter in [GL_TEXTURE_MIN_FILTER, GL_TEXTURE_MAG_FILTER] {
            glTexParameteri(GLe(GL_TEXTURE_2D), GLe(parameter), GL_NEAREST)
        }
        for parameter in [GL_TEXTURE_WRAP_S, GL_TEXTURE_WRAP_T] {
            glTexParameteri(GLe(GL_TEXTURE_2D), GLe(parameter), GL_CLAMP_TO_EDGE)
        }
    }
}

/// An offscreen framebuffer whose colour (RGBA8) and depth (24-bit) are textures, so a later pass
/// can read them (the eye-dome lighting pass).
@MainActor
final class GLTextureFramebuffer {
    private let framebuffer = GLName(glGenFramebuffers, delete: glDeleteFramebuffers)
    /// The colour texture.
    let color: GLTexture2D
    /// The depth texture.
    let depth: GLTexture2D
    /// Size in pixels.
    let width: Int, height: Int
    /// The framebuffer name.
    var id: GLuint { framebuffer.id }

    /// Creates and checks the framebuffer; throws when the driver rejects it.
    init(width: Int, height: Int) throws {
        self.width = width
        self.height = height
        color = GLTexture2D(width: width, height: height, internalFormat: GL_RGBA8, format: GL_RGBA, type: GL_UNSIGNED_BYTE)
        depth = GLTexture2D(width: width, height: height, internalFormat: GL_DEPTH_COMPONENT24, format: GL_DEPTH_COMPONENT,
                            type: GL_UNSIGNED_INT)
        glBindFramebuffer(GLe(GL_FRAMEBUFFER), id)
        glFramebufferTexture2D(GLe(GL_FRAMEBUFFER), GLe(GL_COLOR_ATTACHMENT0), GLe(GL_TEXTURE_2D), color.id, 0)
        glFramebufferTexture2D(GLe(GL_FRAMEBUFFER), GLe(GL_DEPTH_ATTACHMENT), GLe(GL_TEXTURE_2D), depth.id, 0)
        let status = glCheckFramebufferStatus(GLe(GL_FRAMEBUFFER))
        guard status == GLe(GL_FRAMEBUFFER_COMPLETE) else {
            throw PointPaintError(.unsupported, "the eye-dome lighting framebuffer is incomplete (status 0x\(String(status, radix: 16)))")
        }
    }

    /// Binds it for drawing.
    func bind() { glBindFramebuffer(GLe(GL_FRAMEBUFFER), id) }
}

/// A buffer texture of unsigned integer pairs (`usamplerBuffer`, RG32UI): the level-of-detail tree
/// the points shader walks.
@MainActor
final class GLBufferTexture {
    private let buffer = GLBuffer()
    private let texture = GLName(glGenTextures, delete: glDeleteTextures)
    /// The texture name.
    var id: GLuint { texture.id }

    /// Creates it holding one zero pair.
    init() {
        upload([.zero])
    }

    /// Replaces the contents.
    func upload(_ values: [SIMD2<UInt32>]) {
        buffer.upload(values.isEmpty ? [.zero] : values, target: GL_TEXTURE_BUFFER, usage: GL_STREAM_DRAW)
        glBindTexture(GLe(GL_TEXTURE_BUFFER), id)
        glTexBuffer(GLe(GL_TEXTURE_BUFFER), GLe(GL_RG32UI), buffer.id)
    }
}
