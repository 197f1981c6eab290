import CGLFW

/// Eye-dome lighting (Boucheny, 2009, as Potree and CloudCompare shade unlit point clouds): the
/// scene is drawn into a texture framebuffer, then a full-screen pass (`edl.frag`) darkens each
/// pixel by how far its neighbours lie in front of it, in log depth, `exp(−strength ·
/// Σ max(0, log w − log wᵢ))`: silhouettes and steps in depth get dark outlines, flat
/// surfaces facing the camera stay as they are.
@MainActor
final class EyeDomeLighting {
    /// Darkening per unit of mean log₂ depth step: Potree's scale, at its default strength.
    static let strength: Float = 300

    private var framebuffer: GLTextureFramebuffer?
    private let emptyArray = GLVertexArray()

    /// Binds the scene framebuffer at `width × height` (made or remade to that size) for drawing
    /// the scene into.
    func beginScene(width: Int, height: Int) throws {
        if framebuffer?.width != width || framebuffer?.height != height {
            framebuffer = nil
            framebuffer = try GLTextureFramebuffer(width: width, height: height)
        }
        framebuffer?.bind()
    }

    /// Draws the shaded scene into `target` (a framebuffer name) with `program` (`edl.vert` +
    /// `edl.frag`); `clip` is the near and far distance the scene was drawn with.
    func resolve(into target: GLuint, program: ShaderProgram, clip: (near: Float, far: Float)) {
        guard let framebuffer else { return }
        glBindFramebuffer(GLe(GL_FRAMEBUFFER), target)
        glViewport(0, 0, GLsizei(framebuffer.width), GLsizei(framebuffer.height))
        glDisable(GLe(GL_DEPTH_TEST))
        program.use()
        glActiveTexture(GLe(GL_TEXTURE1))
        glBindTexture(GLe(GL_TEXTURE_2D), framebuffer.color.id)
        glActiveTexture(GLe(GL_TEXTURE2))
        glBindTexture(GLe(GL_TEXTURE_2D), framebuffer.depth.id)
        program.set("sceneColor", Int32(1))
        program.set("sceneDepth", Int32(2))
        program.set("farPlusNear", clip.far + clip.near)
        program.set("farMinusNear", clip.far - clip.near)
        program.set("strength", Self.strength)
        program.set("lastPixel", SIMD2<Int32>(Int32(framebuffer.width - 1), Int32(framebuffer.height - 1)))
        emptyArray.bind()
        glDrawArrays(GLe(GL_TRIANGLES), 0, 3)
        glActiveTexture(GLe(GL_TEXTURE0))
        glEnable(GLe(GL_DEPTH_TEST))
    }
}
