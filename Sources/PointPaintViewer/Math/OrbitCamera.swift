import Foundation

/// An orbit camera around a target point: pure math, no OpenGL, so it is tested directly.
///
/// World axes follow ARKit: +y up. The camera sits `distance` from `target` along its own +z
/// axis and looks down its −z axis; `orientation` maps camera axes to world axes.
/// Yaw turns about the world's up axis (0 looks along −z, from the +z side); pitch raises the
/// camera (positive looks down on the scene).
public struct OrbitCamera: Sendable, Equatable {
    /// How mouse drags rotate the view.
    public enum Mode: String, Sendable, CaseIterable {
        /// Yaw about the world's up axis, pitch about the camera's right axis: the horizon stays level.
        case turntable
        /// Free rotation about axes in the view plane (a virtual trackball).
        case trackball
    }

    /// The point orbited and zoomed about.
    public var target: SIMD3<Float>
    /// Distance from the eye to `target`.
    public var distance: Float
    /// Camera-to-world rotation.
    public var orientation: Quat
    /// Vertical field of view in radians.
    public var fovY: Float
    /// How drags rotate the view.
    public var mode: Mode = .turntable
    /// Centre of the scene's bounding sphere, used for the clip planes.
    public var sceneCenter: SIMD3<Float>
    /// Radius of the scene's bounding sphere, used for the clip planes.
    public var sceneRadius: Float
    /// Radius of what the camera frames (the cloud's bulk), used for the zoom limits.
    public var focusRadius: Float

    /// A camera looking at `target` from `distance` at the given angles in degrees.
    public init(target: SIMD3<Float> = .zero, distance: Float = 3, yawDegrees: Float = 0, pitchDegrees: Float = 0,
                fovYDegrees: Float = 45, sceneCenter: SIMD3<Float>? = nil, sceneRadius: Float = 1) {
        self.target = target
        self.distance = distance
        self.orientation = Self.orientation(yawDegrees: yawDegrees, pitchDegrees: pitchDegrees)
        self.fovY = fovYDegrees * .pi / 180
        self.sceneCenter = sceneCenter ?? target
        self.sceneRadius = sceneRadius
        self.focusRadius = sceneRadius
    }

    /// The camera-to-world rotation for yaw and pitch in degrees.
    public static func orientation(yawDegrees: Float, pitchDegrees: Float) -> Quat {
        let yaw = Quat(angle: yawDegrees * .pi / 180, axis: SIMD3(0, 1, 0))
        let pitch = Quat(angle: -pitchDegrees * .pi / 180, axis: SIMD3(1, 0, 0))
        return (yaw * pitch).normalized
    }

    /// The camera's right axis in world space.
    public var right: SIMD3<Float> { orientation.rotate(SIMD3(1, 0, 0)) }
    /// The camera's up axis in world space.
    public var up: SIMD3<Float> { orientation.rotate(SIMD3(0, 1, 0)) }
    /// The direction the camera looks in, world space.
    public var forward: SIMD3<Float> { orientation.rotate(SIMD3(0, 0, -1)) }
    /// The eye position.
    public var eye: SIMD3<Float> { target - forward * distance }

    /// World-to-camera matrix.
    public var viewMatrix: Matrix4x4f {
        let r = right, u = up, b = -forward, e = eye
        return Matrix4x4f(SIMD4(r.x, u.x, b.x, 0), SIMD4(r.y, u.y, b.y, 0), SIMD4(r.z, u.z, b.z, 0),
                          SIMD4(-dot(r, e), -dot(u, e), -dot(b, e), 1))
    }

    /// Near and far clip distances enclosing the scene's bounding sphere.
    public var clipRange: (near: Float, far: Float) {
        let d = length(eye - sceneCenter)
        let r = max(sceneRadius, 1e-6) * 1.5
        let far = d + r
        return (max(d - r, far * 1e-4), far)
    }

    /// Camera-to-clip matrix for a viewport of the given aspect (width / height).
    public func projectionMatrix(aspect: Float) -> Matrix4x4f {
        let (near, far) = clipRange
        return .perspective(fovY: fovY, aspect: aspect, near: near, far: far)
    }

    /// World-to-clip matrix.
    public func viewProjection(aspect: Float) -> Matrix4x4f { projectionMatrix(aspect: aspect) * viewMatrix }

    /// Normalised device coordinates of a world point (x right, y up, −1…1 on screen), or nil
    /// behind the eye.
    public func project(_ p: SIMD3<Float>, aspect: Float) -> SIMD3<Float>? {
        let c = viewProjection(aspect: aspect) * SIMD4(p, 1)
        guard c.w > 0 else { return nil }
        return SIMD3(c.x, c.y, c.z) / c.w
    }

    /// The world-space ray through normalised device coordinates `ndc`.
    public func ray(ndc: SIMD2<Float>, aspect: Float) -> (origin: SIMD3<Float>, direction: SIMD3<Float>) {
        let t = tan(fovY / 2)
        let d = forward + right * (ndc.x * t * aspect) + up * (ndc.y * t)
        return (eye, normalize(d))
    }

    // MARK: Moves

    /// The largest pitch a turntable reaches, in radians (89°): looking straight down or up
    /// would make yaw and roll the same turn, and going past it turns the view upside down.
    public static let maximumTurntablePitch: Float = 89 * .pi / 180

    /// The angle in radians the camera looks down on the target (negative: looks up), from −π/2
    /// to π/2.
    public var pitch: Float { asin(min(max(-forward.y, -1), 1)) }

    /// Rotates about the target: `yaw` and `pitch` in radians (turntable: about world up and
    /// the camera's right axis, with the pitch kept within ±`maximumTurntablePitch`; trackball:
    /// about the camera's up and right axes, unlimited).
    public mutating func orbit(yaw: Float, pitch: Float) {
        switch mode {
        case .turntable:
            var pitch = pitch
            if up.y >= 0 {
                // Clamp the result, but let a view already past the limit move back towards level.
                let current = self.pitch, limit = Self.maximumTurntablePitch
                let target = pitch > 0 ? min(current + pitch, max(current, limit)) : max(current + pitch, min(current, -limit))
                pitch = target - current
            }
            let turn = Quat(angle: yaw, axis: SIMD3(0, 1, 0))
            let tilt = Quat(angle: -pitch, axis: SIMD3(1, 0, 0))
            orientation = (turn * orientation * tilt).normalized
        case .trackball:
            let turn = Quat(angle: yaw, axis: SIMD3(0, 1, 0))
            let tilt = Quat(angle: -pitch, axis: SIMD3(1, 0, 0))
            orientation = (orientation * turn * tilt).normalized
        }
    }

    /// Rotates about the target by angles in degrees (see `orbit(yaw:pitch:)`).
    public mutating func orbit(yawDegrees: Float, pitchDegrees: Float) {
        orbit(yaw: yawDegrees * .pi / 180, pitch: pitchDegrees * .pi / 180)
    }

    /// Moves target and eye together in the view plane by a fraction of the viewport:
    /// `delta` in normalised device units (2 is the whole width or height).
    public mutating func pan(ndcDelta delta: SIMD2<Float>, aspect: Float) {
        let t = tan(fovY / 2) * distance
        target -= right * (delta.x * t * aspect) + up * (delta.y * t)
    }

    /// Zooms by `factor` (below 1 moves closer) keeping the point under `ndc` fixed on screen:
    /// that point, on the plane through the target facing the camera, stays under the cursor.
    public mutating func zoom(factor: Float, toward ndc: SIMD2<Float> = .zero, aspect: Float) {
        let minimum = max(focusRadius, 1e-6) * 1e-3, maximum = max(sceneRadius, focusRadius, 1e-6) * 1e3
        let newDistance = min(max(distance * factor, minimum), maximum)
        let f = newDistance / distance
        let t = tan(fovY / 2) * distance
        let under = target + right * (ndc.x * t * aspect) + up * (ndc.y * t)
        target += (under - target) * (1 - f)
        distance = newDistance
    }

    /// Frames `framing`: the target moves to the centre of its framed box (the bulk) and the
    /// distance is the nearest at which that box fits the viewport from the current direction,
    /// keeping the orientation; the clip planes take in every point.
    public mutating func fit(_ framing: SceneFraming, aspect: Float) {
        target = framing.center
        sceneCenter = framing.fullCenter
        sceneRadius = framing.fullRadius
        focusRadius = framing.radius
        let tanY = tan(fovY / 2), tanX = tanY * aspect
        // The nearest distance at which every corner of the boxes' bounds projects inside the
        // view from the current direction (a bounding sphere would leave a wide, flat scene
        // small in the middle), with a small margin; never nearer than the sphere's surface.
        let half = framing.extent / 2 + SIMD3(repeating: framing.boxSize / 2)
        let r = right, u = up, back = -forward
        var needed: Float = 0
        for corner in 0 ..< 8 {
            let offset = SIMD3<Float>(corner & 1 == 0 ? -half.x : half.x, corner & 2 == 0 ? -half.y : half.y,
                                      corner & 4 == 0 ? -half.z : half.z)
            let x = abs(dot(offset, r)), y = abs(dot(offset, u)), z = dot(offset, back)
            needed = max(needed, z + x / tanX, z + y / tanY)
        }
        let margin: Float = 1.06
        distance = max(needed * margin, framing.radius * 1.05)
        if !distance.isFinite || distance <= 0 { distance = framing.radius / sin(min(atan(tanX), atan(tanY))) * 1.02 }
    }

    /// A camera framing `framing` from its suggested angles (or the given ones).
    public static func fitted(to framing: SceneFraming, aspect: Float, yawDegrees: Float? = nil,
                              pitchDegrees: Float? = nil, distance: Float? = nil) -> OrbitCamera {
        let view = framing.suggestedView
        var camera = OrbitCamera(yawDegrees: yawDegrees ?? view.yaw, pitchDegrees: pitchDegrees ?? view.pitch)
        camera.fit(framing, aspect: aspect)
        if let distance, distance > 0 { camera.distance = distance }
        return camera
    }
}
