// Points: one vertex per voxel of an octree node, read from the node's buffer (the same buffer
// the boxes read as instances).
layout(location = 2) in vec3 center;
layout(location = 3) in vec3 color;

uniform mat4 viewProjection;
uniform float pointSize;       // pixels, when worldPointSize is 0
uniform float worldPointSize;  // world units (the points fallback for boxes), else 0
uniform float pixelScale;      // pixels per world unit at distance 1
uniform float maxPointSize;

// Level of detail (PointOctree): the drawn nodes as a tree, one texel each, breadth first:
// x = octants with a drawn child (bits 0-7) | octants with any child (bits 8-15),
// y = the texel of the first drawn child (the others follow in octant order).
uniform usamplerBuffer lodTree;
uniform int lodNode;           // this node's texel
uniform vec3 lodOrigin;        // this node's minimum corner
uniform float lodSize;         // its edge
uniform float lodSpacing;      // its grid spacing: the gap its points leave where no child refines them
uniform float lodFloor;        // the least spacing of this node's points (a thinned node), else 0

out vec3 vColor;

uint bitCount8(uint v) {
    v = v - ((v >> 1u) & 0x55u);
    v = (v & 0x33u) + ((v >> 2u) & 0x33u);
    return (v + (v >> 4u)) & 0x0Fu;
}

// The gap between drawn points where this point lies, in world units: walk down the drawn
// children containing it; where the walk stops, a child that exists but is not drawn means the
// points here are that node's coarse sample (its spacing); no child means full resolution (0).
float levelOfDetailSpacing() {
    int entry = lodNode;
    vec3 origin = lodOrigin;
    float size = lodSize;
    float spacing = lodSpacing;
    for (int level = 0; level < 24; level++) {
        uvec2 texel = texelFetch(lodTree, entry).xy;
        float halfSize = size * 0.5;
        bvec3 upper = greaterThanEqual(center, origin + halfSize);
        uint octant = uint(upper.x) | (uint(upper.y) << 1u) | (uint(upper.z) << 2u);
        uint bit = 1u << octant;
        if ((texel.x & bit) == 0u) return ((texel.x >> 8u) & bit) != 0u ? spacing : 0.0;
        entry = int(texel.y + bitCount8(texel.x & (bit - 1u)));
        origin += vec3(upper) * halfSize;
        size = halfSize;
        spacing *= 0.5;
    }
    return 0.0;
}

void main() {
    vColor = color;
    gl_Position = viewProjection * vec4(center, 1.0);
    float perUnit = pixelScale / max(gl_Position.w, 1e-6);
    float size = worldPointSize > 0.0 ? worldPointSize * perUnit : pointSize;
    // A grid sample leaves gaps up to its spacing between points; discs need √2 of it to cover them.
    float spacing = max(levelOfDetailSpacing(), lodFloor) * 1.4142;
    gl_PointSize = clamp(max(size, spacing * perUnit), 1.0, maxPointSize);
}
