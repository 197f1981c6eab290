/* Plain C + OpenGL 3.3 peer for the viewer benchmark: N instanced, per-face lit cubes (or N
 * points) drawn offscreen at 1280x720, glFinish after every frame, mean ms/frame printed.
 * The scene and camera are the ones the ViewerBenchmark target draws (`lattice(count:)` in
 * Benchmarks/ViewerBenchmark/main.swift): a lattice of side ceil(cbrt(N)) filling the unit cube,
 * boxes of 0.8 lattice steps coloured by position, seen from yaw 30, pitch 25, fitted to view.
 *
 *   cc -O2 -o cubes Benchmarks/peers/cubes.c -lglfw -lGL -lm
 *   xvfb-run -a -s "-screen 0 1920x1080x24" ./cubes 100000 [frames] [points]
 *   xvfb-run -a -s "-screen 0 1920x1080x24" ./cubes 20000000 5 points   # every one of 20M points, the viewer's level-of-detail peer
 */
#define GL_GLEXT_PROTOTYPES 1
#define GLFW_INCLUDE_NONE 1
#include <GL/gl.h>
#include <GL/glext.h>
#include <GLFW/glfw3.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static const char *boxVS =
    "#version 330 core\n"
    "layout(location=0) in vec3 corner; layout(location=1) in vec3 normal;\n"
    "layout(location=2) in vec3 center; layout(location=3) in vec3 color;\n"
    "uniform mat4 viewProjection; uniform float boxSize;\n"
    "out vec3 vColor; out vec3 vNormal;\n"
    "void main() { vColor = color; vNormal = normal;\n"
    "  gl_Position = viewProjection * vec4(center + corner * boxSize, 1.0); }\n";
static const char *boxFS =
    "#version 330 core\n"
    "in vec3 vColor; in vec3 vNormal; out vec4 fragColor;\n"
    "uniform vec3 lightDirection; uniform float ambient;\n"
    "void main() { float d = max(dot(vNormal, lightDirection), 0.0);\n"
    "  fragColor = vec4(vColor * (ambient + (1.0 - ambient) * d), 1.0); }\n";
static const char *pointVS =
    "#version 330 core\n"
    "layout(location=2) in vec3 center; layout(location=3) in vec3 color;\n"
    "uniform mat4 viewProjection; uniform float worldPointSize; uniform float pixelScale;\n"
    "out vec3 vColor;\n"
    "void main() { vColor = color; gl_Position = viewProjection * vec4(center, 1.0);\n"
    "  gl_PointSize = clamp(worldPointSize * pixelScale / max(gl_Position.w, 1e-6), 1.0, 64.0); }\n";
static const char *pointFS =
    "#version 330 core\n"
    "in vec3 vColor; out vec4 fragColor;\n"
    "void main() { fragColor = vec4(vColor, 1.0); }\n";

static GLuint compile(GLenum stage, const char *src) {
    GLuint s = glCreateShader(stage);
    glShaderSource(s, 1, &src, NULL);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) { char log[2048]; glGetShaderInfoLog(s, sizeof log, NULL, log); fprintf(stderr, "shader: %s\n", log); exit(1); }
    return s;
}

static GLuint program(const char *vs, const char *fs) {
    GLuint p = glCreateProgram();
    glAttachShader(p, compile(GL_VERTEX_SHADER, vs));
    glAttachShader(p, compile(GL_FRAGMENT_SHADER, fs));
    glLinkProgram(p);
    GLint ok = 0;
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) { fprintf(stderr, "link failed\n"); exit(1); }
    return p;
}

static void normalize3(float *v) { float l = sqrtf(v[0]*v[0] + v[1]*v[1] + v[2]*v[2]); v[0] /= l; v[1] /= l; v[2] /= l; }
static double now_ms(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e3 + t.tv_nsec / 1e6; }
/* CPU time of the whole process (user + system, every llvmpipe thread): on a shared machine it
 * moves far less than the wall clock when other work takes turns on the cores. */
static double cpu_ms(void) {
    struct rusage u; getrusage(RUSAGE_SELF, &u);
    return (u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e3 + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e3;
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 100000, frames = argc > 2 ? atoi(argv[2]) : 20;
    int points = argc > 3 && strcmp(argv[3], "points") == 0;
    const int W = 1280, H = 720;
    if (!glfwInit()) { fprintf(stderr, "cannot initialise GLFW (no display?)\n"); return 1; }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3); glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE); glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
    GLFWwindow *window = glfwCreateWindow(W, H, "cubes", NULL, NULL);
    if (!window) { fprintf(stderr, "cannot create a 3.3 core window\n"); return 1; }
    glfwMakeContextCurrent(window);

    /* Scene: positions in the first half of one buffer, colours in the second (as the viewer). */
    int side = 1; while ((long)side * side * side < n) side++;
    float step = 1.0f / side, box = 0.8f * step;
    size_t bytes = (size_t)n * 3 * sizeof(float);
    float *data = malloc(2 * bytes);
    for (int i = 0; i < n; i++) {
        float g[3] = { (float)(i % side), (float)(i / side % side), (float)(i / (side * side)) };
        for (int k = 0; k < 3; k++) { data[3*i + k] = (g[k] + 0.5f) * step - 0.5f; data[3*n + 3*i + k] = (g[k] + 0.5f) * step; }
    }
    /* Unit cube: 4 corners a face with normals, 36 indices. */
    float cube[24 * 6]; unsigned short idx[36];
    const float faces[6][9] = { {1,0,0, 0,1,0, 0,0,1}, {-1,0,0, 0,0,1, 0,1,0}, {0,1,0, 0,0,1, 1,0,0},
                                {0,-1,0, 1,0,0, 0,0,1}, {0,0,1, 1,0,0, 0,1,0}, {0,0,-1, 0,1,0, 1,0,0} };
    const float ab[4][2] = { {-1,-1}, {1,-1}, {1,1}, {-1,1} };
    for (int f = 0; f < 6; f++) {
        for (int c = 0; c < 4; c++) for (int k = 0; k < 3; k++) {
            cube[(4*f + c)*6 + k] = (faces[f][k] + faces[f][3+k] * ab[c][0] + faces[f][6+k] * ab[c][1]) / 2;
            cube[(4*f + c)*6 + 3 + k] = faces[f][k];
        }
        unsigned short b = 4 * f, q[6] = { b, b+1, b+2, b, b+2, b+3 };
        memcpy(idx + 6*f, q, sizeof q);
    }
    GLuint vao, bufs[3];
    glGenVertexArrays(1, &vao); glBindVertexArray(vao); glGenBuffers(3, bufs);
    glBindBuffer(GL_ARRAY_BUFFER, bufs[0]); glBufferData(GL_ARRAY_BUFFER, sizeof cube, cube, GL_STATIC_DRAW);
    glEnableVertexAttribArray(0); glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 24, (void *)0);
    glEnableVertexAttribArray(1); glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 24, (void *)12);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, bufs[1]); glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof idx, idx, GL_STATIC_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, bufs[2]); glBufferData(GL_ARRAY_BUFFER, 2 * bytes, data, GL_STATIC_DRAW);
    glEnableVertexAttribArray(2); glVertexAttribPointer(2, 3, GL_FLOAT, GL_FALSE, 12, (void *)0);
    glEnableVertexAttribArray(3); glVertexAttribPointer(3, 3, GL_FLOAT, GL_FALSE, 12, (void *)bytes);
    if (!points) { glVertexAttribDivisor(2, 1); glVertexAttribDivisor(3, 1); }

    /* Camera: fit the bounding sphere, yaw 30, pitch 25, fov 45, turntable (world up). */
    float extent = (side - 1) * step + box, r = sqrtf(3) * extent / 2;
    float fov = 45 * M_PI / 180, aspect = (float)W / H, halfY = fov / 2, halfX = atanf(tanf(halfY) * aspect);
    float d = r / sinf(fminf(halfX, halfY)) * 1.02f, yaw = 30 * M_PI / 180, pitch = 25 * M_PI / 180;
    float back[3] = { cosf(pitch) * sinf(yaw), sinf(pitch), cosf(pitch) * cosf(yaw) };
    float right[3] = { cosf(yaw), 0, -sinf(yaw) };
    float up[3] = { back[1]*right[2] - back[2]*right[1], back[2]*right[0] - back[0]*right[2], back[0]*right[1] - back[1]*right[0] };
    float eye[3] = { back[0] * d, back[1] * d, back[2] * d };
    float farp = d + 1.5f * r, nearp = fmaxf(d - 1.5f * r, farp * 1e-4f), f = 1 / tanf(fov / 2);
    float view[16] = { right[0], up[0], back[0], 0, right[1], up[1], back[1], 0, right[2], up[2], back[2], 0,
        -(right[0]*eye[0] + right[1]*eye[1] + right[2]*eye[2]), -(up[0]*eye[0] + up[1]*eye[1] + up[2]*eye[2]),
        -(back[0]*eye[0] + back[1]*eye[1] + back[2]*eye[2]), 1 };
    float proj[16] = { f / aspect, 0, 0, 0, 0, f, 0, 0, 0, 0, (farp + nearp) / (nearp - farp), -1, 0, 0, 2 * farp * nearp / (nearp - farp), 0 };
    float vp[16];
    for (int c = 0; c < 4; c++) for (int row = 0; row < 4; row++) {
        float s = 0; for (int k = 0; k < 4; k++) s += proj[k*4 + row] * view[c*4 + k]; vp[c*4 + row] = s;
    }
    float light[3]; for (int k = 0; k < 3; k++) light[k] = -0.35f * right[k] + 0.8f * up[k] + 0.5f * back[k];
    normalize3(light);

    GLuint prog = points ? program(pointVS, pointFS) : program(boxVS, boxFS);
    glUseProgram(prog);
    glUniformMatrix4fv(glGetUniformLocation(prog, "viewProjection"), 1, GL_FALSE, vp);
    glUniform1f(glGetUniformLocation(prog, "boxSize"), box);
    glUniform3fv(glGetUniformLocation(prog, "lightDirection"), 1, light);
    glUniform1f(glGetUniformLocation(prog, "ambient"), 0.45f);
    glUniform1f(glGetUniformLocation(prog, "worldPointSize"), box);
    glUniform1f(glGetUniformLocation(prog, "pixelScale"), H / (2 * tanf(fov / 2)));

    GLuint fbo, rb[2];
    glGenFramebuffers(1, &fbo); glBindFramebuffer(GL_FRAMEBUFFER, fbo); glGenRenderbuffers(2, rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb[0]); glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, W, H);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb[0]);
    glBindRenderbuffer(GL_RENDERBUFFER, rb[1]); glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, W, H);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, rb[1]);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) { fprintf(stderr, "framebuffer incomplete\n"); return 1; }
    glViewport(0, 0, W, H);
    glEnable(GL_DEPTH_TEST); glEnable(GL_PROGRAM_POINT_SIZE);
    if (!points) { glEnable(GL_CULL_FACE); glCullFace(GL_BACK); }

    double total = 0, fastest = 1e30, cpu = 0;
    for (int i = -3; i < frames; i++) {   /* 3 untimed warm-up frames */
        if (i == 0) cpu = cpu_ms();
        double start = now_ms();
        glClearColor(0.11f, 0.11f, 0.13f, 1); glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        if (points) glDrawArrays(GL_POINTS, 0, n);
        else glDrawElementsInstanced(GL_TRIANGLES, 36, GL_UNSIGNED_SHORT, NULL, n);
        glFinish();
        double t = now_ms() - start;
        if (i >= 0) { total += t; if (t < fastest) fastest = t; }
    }
    double ms = total / frames;
    cpu = (cpu_ms() - cpu) / frames;
    unsigned char px[3];
    glReadPixels(W / 2, H / 2, 1, 1, GL_RGB, GL_UNSIGNED_BYTE, px);   /* keep the result alive */
    printf("cubes.c: %d voxels as %s at %dx%d: %.1f ms/frame (fastest %.1f; CPU %.1f ms/frame) over %d frames (%s; centre %d,%d,%d)\n", n,
           points ? "points" : "boxes", W, H, ms, fastest, cpu, frames, (const char *)glGetString(GL_RENDERER), px[0], px[1], px[2]);
    glfwDestroyWindow(window);
    glfwTerminate();
    free(data);
    return 0;
}
