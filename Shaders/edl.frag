// Eye-dome lighting (Boucheny 2009): a pixel is darkened by how far its four neighbours lie in
// front of it in log depth, shade = exp(-strength * mean(max(0, log2 w - log2 w_i))), so steps
// in depth and silhouettes (the background counts as the far plane) get dark outlines while
// surfaces facing the camera keep their colour.
uniform sampler2D sceneColor;
uniform sampler2D sceneDepth;
uniform float farPlusNear;     // f + n of the projection the scene was drawn with
uniform float farMinusNear;    // f - n
uniform float strength;
uniform ivec2 lastPixel;       // width - 1, height - 1

out vec4 fragColor;

// (f + n) - z_ndc (f - n): proportional to 1 / w, the view distance, so no division is needed.
float inverseDistance(ivec2 p) {
    float depth = texelFetch(sceneDepth, clamp(p, ivec2(0), lastPixel), 0).r;
    return farPlusNear - (2.0 * depth - 1.0) * farMinusNear;
}

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    float c = inverseDistance(p);
    // sum of max(0, log2(w / w_i)) = log2 of the product of max(a_i, a) / a, with a = 1 / w:
    // one log2 for the four neighbours.
    float product = max(inverseDistance(p + ivec2(1, 0)), c) * max(inverseDistance(p + ivec2(-1, 0)), c)
        * max(inverseDistance(p + ivec2(0, 1)), c) * max(inverseDistance(p + ivec2(0, -1)), c);
    float c2 = c * c;
    float response = log2(product / (c2 * c2)) * 0.25;
    fragColor = vec4(texelFetch(sceneColor, p, 0).rgb * exp(-strength * response), 1.0);
}
