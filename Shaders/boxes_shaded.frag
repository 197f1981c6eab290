// Boxes lit per face by a light fixed to the camera (upper left, behind the eye), so the three
// visible faces of a box always differ in brightness and boxes read as boxes.
in vec3 vColor;
in vec3 vNormal;
out vec4 fragColor;

uniform vec3 lightDirection;   // world space, towards the light, unit length
uniform float ambient;         // brightness of a face turned away from the light

void main() {
    float diffuse = max(dot(vNormal, lightDirection), 0.0);
    fragColor = vec4(styleColor(vColor) * (ambient + (1.0 - ambient) * diffuse), 1.0);
}
