// PointPaint's web viewer (docs/web.md): a point cloud written by `pointpaint export-web`, streamed
// node by node from the level-of-detail octree in cloud/, drawn with WebGL2. The camera, the
// framing, the level-of-detail selection and eye-dome lighting follow the desktop viewer
// (PointPaintViewer: OrbitCamera, SceneFraming, PointOctree.select, edl.frag), so the same cloud
// and view give the same picture in both. Nothing is fetched from any other host.
'use strict';

(function () {
  const FOV_Y = 45 * Math.PI / 180;
  const MINIMUM_SPACING_PIXELS = 1.5;
  const POINTS_PER_PIXEL = 0.75;
  const MAX_POINT_SIZE = 64;
  const EDL_STRENGTH = 300;
  const PARALLEL_FETCHES = 6;
  const BACKGROUNDS = { dark: [0.11, 0.11, 0.13], black: [0, 0, 0], white: [1, 1, 1], grey: [0.5, 0.5, 0.5] };
  const HEAT_STOPS = [[0x3B, 0x52, 0x8B], [0x21, 0x91, 0x8C], [0x5E, 0xC9, 0x62], [0xFD, 0xE7, 0x25]];
  const SOURCES = ['colour', 'views', 'spread'];

  const canvas = document.getElementById('view');
  const statusLine = document.getElementById('status');
  const messageLine = document.getElementById('message');
  const measureLine = document.getElementById('measure');

  function showMessage(text) {
    messageLine.hidden = false;
    messageLine.textContent = messageLine.textContent ? messageLine.textContent + ' · ' + text : text;
  }

  const gl = canvas.getContext('webgl2', { antialias: false, preserveDrawingBuffer: true, alpha: false });
  if (!gl) {
    statusLine.textContent = 'no WebGL2';
    showMessage('This page needs a browser with WebGL2.');
    return;
  }

  // ---- Options from the URL: the names and meanings of `pointpaint view`'s options. ----
  const options = { yaw: null, pitch: null, distance: null, edl: true, size: 4, background: 'dark', budget: null, source: 'colour', ui: true, shape: 'round', raster: 'auto' };
  function readHash() {
    const p = new URLSearchParams(location.hash.replace(/^#/, ''));
    const number = (name) => (p.has(name) && isFinite(parseFloat(p.get(name))) ? parseFloat(p.get(name)) : null);
    options.yaw = number('yaw');
    options.pitch = number('pitch');
    options.distance = number('distance');
    if (p.has('edl')) options.edl = p.get('edl') !== 'off';
    if (number('point-size') !== null) options.size = Math.min(Math.max(number('point-size'), 1), MAX_POINT_SIZE);
    if (p.has('background') && BACKGROUNDS[p.get('background')]) options.background = p.get('background');
    if (number('budget') !== null) options.budget = Math.max(1, Math.round(number('budget')));
    if (p.has('color') && SOURCES.includes(p.get('color'))) options.source = p.get('color');
    if (p.has('ui')) options.ui = p.get('ui') !== 'off';
    if (p.has('shape') && ['round', 'square'].includes(p.get('shape'))) options.shape = p.get('shape');
    options.raster = p.has('raster') && ['webgl', 'page'].includes(p.get('raster')) ? p.get('raster') : 'auto';
    document.getElementById('panel').hidden = !options.ui;
  }
  readHash();

  // ---- Small vector and matrix helpers (column-major 4 × 4, as GL). ----
  const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
  const add = (a, b) => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
  const scale = (a, s) => [a[0] * s, a[1] * s, a[2] * s];
  const length = (a) => Math.sqrt(dot(a, a));
  function multiply(a, b) {
    const m = new Float64Array(16);
    for (let c = 0; c < 4; c++) for (let r = 0; r < 4; r++) {
      let s = 0;
      for (let k = 0; k < 4; k++) s += a[k * 4 + r] * b[c * 4 + k];
      m[c * 4 + r] = s;
    }
    return m;
  }
  function perspective(fovY, aspect, near, far) {
    const f = 1 / Math.tan(fovY / 2);
    return Float64Array.of(f / aspect, 0, 0, 0, 0, f, 0, 0, 0, 0, (far + near) / (near - far), -1, 0, 0, 2 * far * near / (near - far), 0);
  }

  // ---- Colour: 8-bit sRGB, or Display P3 where the cloud has wide colour (its node files carry
  // both) and the canvas can be a display-p3 one; the page's own colours are converted to match. ----
  // Linear sRGB → linear Display P3: both D65 with the sRGB curve (ColorPrimaries' matrix).
  const SRGB_TO_P3 = [[0.822461968714, 0.177538031286, 0], [0.033194198851, 0.966805801149, 0], [0.017082630721, 0.072397440664, 0.910519928615]];
  let displayP3 = false;
  function decodeSRGB(v) { return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); }
  function encodeSRGB(v) { return v <= 0.0031308 ? v * 12.92 : 1.055 * Math.pow(v, 1 / 2.4) - 0.055; }
  function canvasColour(rgb) {
    if (!displayP3) return rgb;
    const linear = rgb.map(decodeSRGB);
    return SRGB_TO_P3.map((row) => encodeSRGB(Math.min(Math.max(dot(row, linear), 0), 1)));
  }

  // ---- The camera: OrbitCamera's turntable (yaw about +y, then pitch about the turned x). ----
  const camera = { yaw: 0, pitch: 20, distance: 3, target: [0, 0, 0], sceneCenter: [0, 0, 0], sceneRadius: 1, focusRadius: 1 };
  function axes() {
    const y = camera.yaw * Math.PI / 180, p = camera.pitch * Math.PI / 180;
    const cy = Math.cos(y), sy = Math.sin(y), cp = Math.cos(p), sp = Math.sin(p);
    return { right: [cy, 0, -sy], up: [-sp * sy, cp, -sp * cy], forward: [-cp * sy, -sp, -cp * cy] };
  }
  const eye = () => sub(camera.target, scale(axes().forward, camera.distance));
  function clipRange() {
    const d = length(sub(eye(), camera.sceneCenter)), r = Math.max(camera.sceneRadius, 1e-6) * 1.5;
    const far = d + r;
    return [Math.max(d - r, far * 1e-4), far];
  }
  // The view's rotation alone: points are drawn relative to the eye, so a cloud far from the
  // origin keeps every bit of float32 precision near the camera.
  function rotation() {
    const { right: r, up: u, forward: f } = axes(), b = scale(f, -1);
    return Float64Array.of(r[0], u[0], b[0], 0, r[1], u[1], b[1], 0, r[2], u[2], b[2], 0, 0, 0, 0, 1);
  }
  function aspect() { return canvas.width / Math.max(canvas.height, 1); }
  // SceneFraming + OrbitCamera.fit: the nearest distance at which every corner of the bulk's box
  // projects inside the view from the current direction, with a 6 % margin.
  function fit(framing) {
    camera.target = framing.center.slice();
    camera.sceneCenter = framing.fullCenter.slice();
    camera.sceneRadius = framing.fullRadius;
    camera.focusRadius = framing.radius;
    const tanY = Math.tan(FOV_Y / 2), tanX = tanY * aspect();
    const half = framing.extent.map((e) => e / 2 + framing.boxSize / 2);
    const { right: r, up: u, forward: f } = axes(), back = scale(f, -1);
    let needed = 0;
    for (let corner = 0; corner < 8; corner++) {
      const o = [corner & 1 ? half[0] : -half[0], corner & 2 ? half[1] : -half[1], corner & 4 ? half[2] : -half[2]];
      const x = Math.abs(dot(o, r)), y = Math.abs(dot(o, u)), z = dot(o, back);
      needed = Math.max(needed, z + x / tanX, z + y / tanY);
    }
    camera.distance = Math.max(needed * 1.06, framing.radius * 1.05);
    if (!(camera.distance > 0) || !isFinite(camera.distance)) camera.distance = framing.radius / Math.sin(Math.min(Math.atan(tanX), Math.atan(tanY))) * 1.02;
  }

  // ---- The cloud. ----
  let meta = null;
  const nodes = [];   // { origin, size, parent, count, level, childMask, children, state, data }

  function parseHierarchy(buffer) {
    const view = new DataView(buffer);
    const count = Math.floor(buffer.byteLength / 32);
    for (let i = 0; i < count; i++) {
      const at = i * 32;
      nodes.push({
        origin: [view.getFloat32(at, true), view.getFloat32(at + 4, true), view.getFloat32(at + 8, true)],
        size: view.getFloat32(at + 12, true), parent: view.getInt32(at + 16, true), count: view.getUint32(at + 20, true),
        level: view.getUint8(at + 24), childMask: view.getUint8(at + 25), children: [-1, -1, -1, -1, -1, -1, -1, -1],
        state: 'absent', vao: null, buffer: null, positions: null,
      });
    }
    // A node's children: the nodes naming it as parent, in the octant their corner shows.
    for (let i = 1; i < nodes.length; i++) {
      const n = nodes[i], p = nodes[n.parent];
      if (!p) continue;
      const h = p.size / 2;
      const octant = (n.origin[0] >= p.origin[0] + h * 0.5 ? 1 : 0) | (n.origin[1] >= p.origin[1] + h * 0.5 ? 2 : 0) | (n.origin[2] >= p.origin[2] + h * 0.5 ? 4 : 0);
      p.children[octant] = i;
    }
  }

  // ---- GL programs. ----
  function compile(vertex, fragment) {
    const program = gl.createProgram();
    for (const [type, text] of [[gl.VERTEX_SHADER, vertex], [gl.FRAGMENT_SHADER, fragment]]) {
      const shader = gl.createShader(type);
      gl.shaderSource(shader, text);
      gl.compileShader(shader);
      if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS)) throw new Error('shader: ' + gl.getShaderInfoLog(shader));
      gl.attachShader(program, shader);
    }
    gl.linkProgram(program);
    if (!gl.getProgramParameter(program, gl.LINK_STATUS)) throw new Error('program: ' + gl.getProgramInfoLog(program));
    const uniforms = {};
    const n = gl.getProgramParameter(program, gl.ACTIVE_UNIFORMS);
    for (let i = 0; i < n; i++) { const name = gl.getActiveUniform(program, i).name.replace(/\[0\]$/, ''); uniforms[name] = gl.getUniformLocation(program, name); }
    return { program, uniforms };
  }
  const points = compile(`#version 300 es
    layout(location = 0) in vec3 position;   // 0…65535 within the node's cube
    layout(location = 1) in vec3 color;      // sRGB 0…1
    layout(location = 2) in float heat;      // 0: none, else 1…255
    uniform mat4 viewProjection;              // the rotation only: positions are relative to the eye
    uniform vec3 nodeOffset;                  // the node's corner minus the eye
    uniform float nodeStep;                   // its edge / 65535
    uniform float pointSize, pixelScale, spacing, maxPointSize;
    uniform int source;                       // 0 colour, 1 heat
    uniform vec3 stops[4];
    out vec3 vColor;
    vec3 ramp(float t) {
      float x = clamp(t, 0.0, 1.0) * 3.0;
      int i = min(int(x), 2);
      return mix(stops[i], stops[i + 1], x - float(i));
    }
    void main() {
      vec3 p = nodeOffset + position * nodeStep;
      gl_Position = viewProjection * vec4(p, 1.0);
      float perUnit = pixelScale / max(gl_Position.w, 1e-6);
      gl_PointSize = clamp(max(pointSize, spacing * perUnit), 1.0, maxPointSize);
      vColor = source == 0 ? color : (heat < 0.5 ? vec3(0.5) : ramp((heat - 1.0) / 254.0));
    }`, `#version 300 es
    precision highp float;
    in vec3 vColor;
    out vec4 fragColor;
    uniform bool round;
    void main() {
      vec2 d = gl_PointCoord - vec2(0.5);
      if (round && dot(d, d) > 0.25) discard;
      fragColor = vec4(vColor, 1.0);
    }`);
  // One triangle that covers the whole view, for the passes that read a picture pixel by pixel.
  const WHOLE_VIEW = `#version 300 es
    void main() {
      vec2 p = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);
      gl_Position = vec4(p, 0.0, 1.0);
    }`;
  const edl = compile(WHOLE_VIEW, `#version 300 es
    precision highp float;
    uniform sampler2D sceneColor;
    uniform highp sampler2D sceneDepth;
    uniform float farPlusNear, farMinusNear, strength;
    uniform ivec2 lastPixel;
    out vec4 fragColor;
    float inverseDistance(ivec2 p) {
      float depth = texelFetch(sceneDepth, clamp(p, ivec2(0), lastPixel), 0).r;
      return farPlusNear - (2.0 * depth - 1.0) * farMinusNear;
    }
    void main() {
      ivec2 p = ivec2(gl_FragCoord.xy);
      float c = inverseDistance(p);
      float product = max(inverseDistance(p + ivec2(1, 0)), c) * max(inverseDistance(p + ivec2(-1, 0)), c)
          * max(inverseDistance(p + ivec2(0, 1)), c) * max(inverseDistance(p + ivec2(0, -1)), c);
      float c2 = c * c;
      float response = log2(product / (c2 * c2)) * 0.25;
      fragColor = vec4(texelFetch(sceneColor, p, 0).rgb * exp(-strength * response), 1.0);
    }`);

  // The page's own rasteriser's picture onto the canvas as it is (eye-dome lighting off).
  const copy = compile(WHOLE_VIEW, `#version 300 es
    precision highp float;
    uniform sampler2D sceneColor;
    out vec4 fragColor;
    void main() { fragColor = vec4(texelFetch(sceneColor, ivec2(gl_FragCoord.xy), 0).rgb, 1.0); }`);

  // The offscreen target eye-dome lighting reads: colour and depth textures the canvas's size.
  let target = null;
  function ensureTarget() {
    if (target && target.width === canvas.width && target.height === canvas.height) return target;
    if (target) { gl.deleteFramebuffer(target.framebuffer); gl.deleteTexture(target.color); gl.deleteTexture(target.depth); }
    const texture = (internal, format, type) => {
      const t = gl.createTexture();
      gl.bindTexture(gl.TEXTURE_2D, t);
      gl.texImage2D(gl.TEXTURE_2D, 0, internal, canvas.width, canvas.height, 0, format, type, null);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
      return t;
    };
    const color = texture(gl.RGBA8, gl.RGBA, gl.UNSIGNED_BYTE), depth = texture(gl.DEPTH_COMPONENT32F, gl.DEPTH_COMPONENT, gl.FLOAT);
    const framebuffer = gl.createFramebuffer();
    gl.bindFramebuffer(gl.FRAMEBUFFER, framebuffer);
    gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, color, 0);
    gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.DEPTH_ATTACHMENT, gl.TEXTURE_2D, depth, 0);
    target = { framebuffer, color, depth, width: canvas.width, height: canvas.height };
    return target;
  }

  // ---- Loading nodes on demand. ----
  let inFlight = 0;
  const queue = [];
  function request(id) {
    const node = nodes[id];
    if (node.state !== 'absent') return;
    node.state = 'queued';
    queue.push(id);
    pump();
  }
  function pump() {
    while (inFlight < PARALLEL_FETCHES && queue.length) {
      const id = queue.shift();
      inFlight++;
      load(id).catch((error) => {
        nodes[id].state = 'failed';
        showMessage('node ' + id + ' could not be loaded (' + error.message + '); the rest is drawn');
      }).finally(() => { inFlight--; pump(); afterLoad(); });
    }
  }
  async function load(id) {
    const node = nodes[id];
    node.state = 'loading';
    const response = await fetch('cloud/nodes/' + id + '.bin');
    if (!response.ok) throw new Error('HTTP ' + response.status);
    const buffer = await response.arrayBuffer();
    const n = node.count, colours = meta.wideColour ? 6 : 3;
    const stride = 6 + colours + (meta.heat.views ? 1 : 0) + (meta.heat.spread ? 1 : 0);
    if (buffer.byteLength !== n * stride) throw new Error('expected ' + n * stride + ' bytes, found ' + buffer.byteLength);
    node.bytes = new Uint8Array(buffer);
    node.positions = new Uint16Array(buffer, 0, 3 * n);  // for picking and the page's own rasteriser
    const heat = (6 + colours) * n;
    node.colourOffset = (displayP3 ? 9 : 6) * n;
    node.heatOffsets = { views: meta.heat.views ? heat : -1, spread: meta.heat.spread ? heat + (meta.heat.views ? n : 0) : -1 };
    node.state = 'loaded';
  }

  // A loaded node's vertex array, made the first time WebGL draws it.
  function vertexArray(node) {
    if (node.vao) return node.vao;
    node.vao = gl.createVertexArray();
    gl.bindVertexArray(node.vao);
    node.buffer = gl.createBuffer();
    gl.bindBuffer(gl.ARRAY_BUFFER, node.buffer);
    gl.bufferData(gl.ARRAY_BUFFER, node.bytes, gl.STATIC_DRAW);
    gl.enableVertexAttribArray(0);
    gl.vertexAttribPointer(0, 3, gl.UNSIGNED_SHORT, false, 6, 0);
    gl.enableVertexAttribArray(1);
    gl.vertexAttribPointer(1, 3, gl.UNSIGNED_BYTE, true, 3, node.colourOffset);
    return node.vao;
  }

  // ---- Level of detail: PointOctree.select, with the nodes not loaded yet asked for. ----
  function frustumPlanes(m) {
    const row = (i) => [m[i], m[4 + i], m[8 + i], m[12 + i]];
    const r = [row(0), row(1), row(2), row(3)];
    const plus = (a, b) => a.map((v, i) => v + b[i]), minus = (a, b) => a.map((v, i) => v - b[i]);
    return [plus(r[3], r[0]), minus(r[3], r[0]), plus(r[3], r[1]), minus(r[3], r[1]), plus(r[3], r[2]), minus(r[3], r[2])];
  }
  function intersects(node, planes) {
    for (const p of planes) {
      // The box corner farthest along the plane's normal.
      let s = p[3];
      for (let a = 0; a < 3; a++) s += p[a] * (p[a] >= 0 ? node.origin[a] + node.size : node.origin[a]);
      if (s < 0) return false;
    }
    return true;
  }
  function boxDistance(e, node) {
    let s = 0;
    for (let a = 0; a < 3; a++) {
      const d = Math.max(node.origin[a] - e[a], e[a] - (node.origin[a] + node.size), 0);
      s += d * d;
    }
    return Math.sqrt(s);
  }
  // A binary max-heap of nodes by on-screen size (then the coarser, then the lower index first).
  class NodeHeap {
    constructor() { this.items = []; }
    size() { return this.items.length; }
    static before(a, b) { return a.priority > b.priority || (a.priority === b.priority && (a.level < b.level || (a.level === b.level && a.id < b.id))); }
    push(item) {
      const h = this.items;
      h.push(item);
      let i = h.length - 1;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!NodeHeap.before(h[i], h[parent])) break;
        [h[i], h[parent]] = [h[parent], h[i]];
        i = parent;
      }
    }
    pop() {
      const h = this.items, top = h[0], last = h.pop();
      if (h.length > 0) {
        h[0] = last;
        let i = 0;
        for (;;) {
          const l = 2 * i + 1, r = l + 1;
          let best = i;
          if (l < h.length && NodeHeap.before(h[l], h[best])) best = l;
          if (r < h.length && NodeHeap.before(h[r], h[best])) best = r;
          if (best === i) break;
          [h[i], h[best]] = [h[best], h[i]];
          i = best;
        }
      }
      return top;
    }
  }

  // ViewerOptions.levelOfDetailBudget and SceneRenderer.selection: a cloud within the budget is
  // drawn whole (every node in view); past it a still frame spends at most the budget and 0.75
  // points a pixel of the canvas, a moving frame a quarter of that.
  function frameBudget() {
    const budget = options.budget || meta.budget;
    if (meta.points <= budget) return { budget: Infinity, spacing: 0 };
    const interactive = Math.max(Math.floor(budget / 4), Math.min(budget, 1));
    const pixels = canvas.width * canvas.height * POINTS_PER_PIXEL;
    if (pixels >= (moving ? interactive : budget)) return { budget: moving ? interactive : budget, spacing: MINIMUM_SPACING_PIXELS };
    const still = Math.max(Math.floor(pixels), 1);
    return { budget: moving ? Math.max(Math.floor(still / 4), 1) : still, spacing: MINIMUM_SPACING_PIXELS };
  }

  function select(viewProjection, e, pixelScale, budget, minimumSpacing) {
    const planes = frustumPlanes(viewProjection);
    const heap = new NodeHeap();
    const push = (item) => heap.push(item);
    const consider = (id) => {
      const node = nodes[id];
      if (!intersects(node, planes)) return;
      const distance = boxDistance(e, node);
      const perUnit = distance > 0 ? pixelScale / distance : Infinity;
      if (id !== 0 && (node.size / (1 << meta.gridBits)) * perUnit < minimumSpacing) return;
      push({ id, priority: node.size * perUnit, level: node.level });
    };
    consider(0);
    const drawn = [];
    let total = 0, limited = false, waiting = 0;
    while (heap.size() > 0) {
      const top = heap.pop();
      const node = nodes[top.id];
      if (total + node.count > budget) {
        limited = true;
        if (drawn.length === 0 && node.state === 'loaded') drawn.push({ id: top.id, count: budget });
        else if (node.state !== 'loaded') { request(top.id); waiting++; }
        break;
      }
      if (node.state !== 'loaded') {
        // Asked for, and counted: it will be drawn once it has come (its parent stands in
        // meanwhile); its children wait for it.
        if (node.state !== 'failed') { request(top.id); waiting++; total += node.count; }
        continue;
      }
      drawn.push({ id: top.id, count: node.count });
      total += node.count;
      for (const child of node.children) if (child >= 0) consider(child);
    }
    return { drawn, total: drawn.reduce((s, d) => s + d.count, 0), limited, waiting };
  }

  // ---- The page's own point rasteriser. Where WebGL is itself drawn on the CPU (SwiftShader,
  // llvmpipe: a machine or a browser without a GPU), setting up each GL point costs more than the
  // whole of projecting and writing it here: the page then projects its points in JavaScript into
  // a colour and a depth buffer, with the same rules as the points shader and GL's point
  // rasterisation (a square of the point's size around its centre, the pixels whose centres fall
  // inside it, round points cut to the inscribed disc, the nearest depth kept), and hands both to
  // WebGL as textures for eye-dome lighting or a plain copy. With a GPU, WebGL draws the points. ----
  function softwareWebGL() {
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    const name = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
    return /swiftshader|llvmpipe|softpipe|software/i.test(name);
  }
  const webglIsSoftware = softwareWebGL();
  function pageRasterises() { return options.raster === 'page' || (options.raster === 'auto' && webglIsSoftware); }

  let scene = null;
  function sceneBuffers() {
    const width = canvas.width, height = canvas.height;
    if (scene && scene.width === width && scene.height === height) return scene;
    if (scene) { gl.deleteTexture(scene.colourTexture); gl.deleteTexture(scene.depthTexture); }
    const texture = (internal, format, type) => {
      const t = gl.createTexture();
      gl.bindTexture(gl.TEXTURE_2D, t);
      gl.texImage2D(gl.TEXTURE_2D, 0, internal, width, height, 0, format, type, null);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
      return t;
    };
    const colour = new Uint32Array(width * height);
    scene = {
      width, height, colour, bytes: new Uint8Array(colour.buffer), depth: new Float32Array(width * height),
      colourTexture: texture(gl.RGBA8, gl.RGBA, gl.UNSIGNED_BYTE), depthTexture: texture(gl.R32F, gl.RED, gl.FLOAT),
    };
    return scene;
  }
  // 8-bit RGBA of `rgb` (0…1, the canvas's colour space) as one little-endian word, as GL stores
  // a fragment's colour: each channel rounded to the nearest level.
  const littleEndian = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;
  function packed(r, g, b) {
    const c = [r, g, b].map((v) => Math.round(Math.min(Math.max(v, 0), 1) * 255));
    return littleEndian ? ((255 << 24) | (c[2] << 16) | (c[1] << 8) | c[0]) >>> 0 : ((c[0] << 24) | (c[1] << 16) | (c[2] << 8) | 255) >>> 0;
  }
  // A node's colours as words, made once for each source and colour space.
  function nodeColours(node, source) {
    const key = source + (displayP3 ? '-p3' : '');
    if (node.packed && node.packed.key === key) return node.packed.words;
    const n = node.count, bytes = node.bytes, words = new Uint32Array(n);
    if (source === 'colour') {
      const at = node.colourOffset;
      for (let i = 0; i < n; i++) {
        const r = bytes[at + 3 * i], g = bytes[at + 3 * i + 1], b = bytes[at + 3 * i + 2];
        words[i] = littleEndian ? ((255 << 24) | (b << 16) | (g << 8) | r) >>> 0 : ((r << 24) | (g << 16) | (b << 8) | 255) >>> 0;
      }
    } else {
      // The shader's ramp: grey for a point no frame saw, else the stops mixed in the canvas's space.
      const stops = HEAT_STOPS.map((stop) => canvasColour(stop.map((v) => v / 255)));
      const table = new Uint32Array(256);
      table[0] = packed(0.5, 0.5, 0.5);
      for (let h = 1; h < 256; h++) {
        const x = Math.min(Math.max((h - 1) / 254, 0), 1) * 3, i = Math.min(Math.floor(x), 2), f = x - i;
        table[h] = packed(...[0, 1, 2].map((c) => stops[i][c] + (stops[i + 1][c] - stops[i][c]) * f));
      }
      const at = node.heatOffsets[source];
      for (let i = 0; i < n; i++) words[i] = table[bytes[at + i]];
    }
    node.packed = { key, words };
    return words;
  }
  // The selection's points into the scene's buffers (window coordinates, the bottom row first,
  // as GL's), then uploaded as the colour and depth textures eye-dome lighting reads.
  function rasterise(selection, rotated, e, pixelScale, spacing, background, source) {
    const s = sceneBuffers(), width = s.width, height = s.height, colour = s.colour, depth = s.depth;
    colour.fill(packed(background[0], background[1], background[2]));
    depth.fill(1);
    const m = rotated, halfWidth = width / 2, halfHeight = height / 2, round = options.shape === 'round';
    const pointSize = options.size;
    for (const entry of selection.drawn) {
      const node = nodes[entry.id], q = node.positions, words = nodeColours(node, source), count = entry.count;
      // clip = rotated · (node's corner − eye + q · step, 1), as four affine rows of q.
      const step = node.size / 65535, ox = node.origin[0] - e[0], oy = node.origin[1] - e[1], oz = node.origin[2] - e[2];
      const xa = m[0] * step, xb = m[4] * step, xc = m[8] * step, xd = m[0] * ox + m[4] * oy + m[8] * oz + m[12];
      const ya = m[1] * step, yb = m[5] * step, yc = m[9] * step, yd = m[1] * ox + m[5] * oy + m[9] * oz + m[13];
      const za = m[2] * step, zb = m[6] * step, zc = m[10] * step, zd = m[2] * ox + m[6] * oy + m[10] * oz + m[14];
      const wa = m[3] * step, wb = m[7] * step, wc = m[11] * step, wd = m[3] * ox + m[7] * oy + m[11] * oz + m[15];
      const perUnit = spacing(node) * pixelScale;
      for (let i = 0; i < count; i++) {
        const qx = q[3 * i], qy = q[3 * i + 1], qz = q[3 * i + 2];
        const cw = wa * qx + wb * qy + wc * qz + wd;
        if (!(cw > 0)) continue;
        const cz = za * qx + zb * qy + zc * qz + zd;
        if (cz < -cw || cz > cw) continue;  // outside the near or far plane, as GL clips a point
        const inverse = 1 / cw;
        const x = ((xa * qx + xb * qy + xc * qz + xd) * inverse + 1) * halfWidth;
        const y = ((ya * qx + yb * qy + yc * qz + yd) * inverse + 1) * halfHeight;
        // A centre further outside the view than the largest point reaches covers nothing.
        if (!(x > -MAX_POINT_SIZE && x < width + MAX_POINT_SIZE && y > -MAX_POINT_SIZE && y < height + MAX_POINT_SIZE)) continue;
        // The centre on a grid of 1/16 pixel, as GL rasterisers hold window coordinates
        // (SwiftShader's 4 sub-pixel bits): which pixels a point covers then matches WebGL's.
        const sx = Math.round(x * 16) / 16, sy = Math.round(y * 16) / 16;
        const z = Math.fround(cz * inverse * 0.5 + 0.5);
        let size = perUnit > 0 ? Math.max(pointSize, perUnit * inverse) : pointSize;
        size = size < 1 ? 1 : size > MAX_POINT_SIZE ? MAX_POINT_SIZE : size;
        const half = size / 2;
        // Pixels whose centres (p + ½) lie in [x − half, x + half).
        let x0 = Math.ceil(sx - half - 0.5), x1 = Math.ceil(sx + half - 0.5);
        let y0 = Math.ceil(sy - half - 0.5), y1 = Math.ceil(sy + half - 0.5);
        if (x0 < 0) x0 = 0;
        if (y0 < 0) y0 = 0;
        if (x1 > width) x1 = width;
        if (y1 > height) y1 = height;
        const word = words[i];
        if (round) {
          const limit = 0.25 * size * size;
          for (let py = y0; py < y1; py++) {
            const dy = py + 0.5 - sy, row = py * width;
            for (let px = x0; px < x1; px++) {
              const dx = px + 0.5 - sx;
              if (dx * dx + dy * dy > limit) continue;
              const k = row + px;
              if (z < depth[k]) { depth[k] = z; colour[k] = word; }
            }
          }
        } else {
          for (let py = y0; py < y1; py++) {
            const row = py * width;
            for (let px = x0; px < x1; px++) {
              const k = row + px;
              if (z < depth[k]) { depth[k] = z; colour[k] = word; }
            }
          }
        }
      }
    }
    gl.bindTexture(gl.TEXTURE_2D, s.colourTexture);
    gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, width, height, gl.RGBA, gl.UNSIGNED_BYTE, s.bytes);
    if (options.edl) {
      gl.bindTexture(gl.TEXTURE_2D, s.depthTexture);
      gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, width, height, gl.RED, gl.FLOAT, depth);
    }
    return s;
  }

  // ---- Drawing. ----
  let moving = false, pending = false, lastSelection = null, frames = 0;
  const onePixel = new Uint8Array(4);
  function resize() {
    const ratio = window.devicePixelRatio || 1;
    const w = Math.max(1, Math.round(canvas.clientWidth * ratio)), h = Math.max(1, Math.round(canvas.clientHeight * ratio));
    if (canvas.width !== w || canvas.height !== h) { canvas.width = w; canvas.height = h; }
  }
  function redraw() {
    if (pending) return;
    pending = true;
    requestAnimationFrame(draw);
  }
  // The view this frame: matrices, and the nodes to draw (asking for those not loaded yet).
  function plan() {
    resize();
    const [near, far] = clipRange();
    const projection = perspective(FOV_Y, aspect(), near, far);
    const e = eye();
    const rotated = multiply(projection, rotation());
    // The full view-projection, for the frustum test (in float64 here).
    const translate = Float64Array.of(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -e[0], -e[1], -e[2], 1);
    const viewProjection = multiply(rotated, translate);
    const pixelScale = canvas.height / (2 * Math.tan(FOV_Y / 2));
    const frame = frameBudget();
    const selection = select(viewProjection, e, pixelScale, frame.budget, frame.spacing);
    return { near, far, e, rotated, viewProjection, pixelScale, selection };
  }

  // After a node has come: plan again at once (its children may be wanted: their fetches start
  // now), but draw at most every 250 ms while fetches are under way, and at once when the last
  // has come. A frame can take a good part of a second on a software renderer; one a node would
  // leave the fetches waiting on the drawing.
  let lastDrawn = 0, drawTimer = null;
  function afterLoad() {
    if (!meta) return;
    plan();
    if (inFlight === 0 && queue.length === 0) {
      clearTimeout(drawTimer);
      drawTimer = null;
      redraw();
    } else if (!drawTimer) {
      drawTimer = setTimeout(() => { drawTimer = null; redraw(); }, Math.max(0, 250 - (performance.now() - lastDrawn)));
    }
  }

  function draw() {
    pending = false;
    if (!meta) return;
    const started = performance.now();
    const { near, far, e, rotated, viewProjection, pixelScale, selection } = plan();
    lastSelection = { selection, viewProjection };
    const drawnIds = new Set(selection.drawn.map((d) => d.id));

    const background = canvasColour(BACKGROUNDS[options.background]);
    const source = options.source === 'colour' || !meta.heat[options.source] ? 'colour' : options.source;
    // A grid sample leaves gaps up to its spacing where a child is not drawn: discs of √2 of it.
    const spacing = (node) => (node.children.some((c) => c >= 0 && !drawnIds.has(c)) ? (node.size / (1 << meta.gridBits)) * Math.SQRT2 : 0);
    const onPage = pageRasterises();
    let colourTexture, depthTexture;
    if (onPage) {
      const buffers = rasterise(selection, rotated, e, pixelScale, spacing, background, source);
      colourTexture = buffers.colourTexture;
      depthTexture = buffers.depthTexture;
      gl.bindFramebuffer(gl.FRAMEBUFFER, null);
      gl.viewport(0, 0, canvas.width, canvas.height);
    } else {
      if (options.edl) gl.bindFramebuffer(gl.FRAMEBUFFER, ensureTarget().framebuffer);
      else gl.bindFramebuffer(gl.FRAMEBUFFER, null);
      gl.viewport(0, 0, canvas.width, canvas.height);
      gl.clearColor(background[0], background[1], background[2], 1);
      gl.clearDepth(1);
      gl.enable(gl.DEPTH_TEST);
      gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
      gl.useProgram(points.program);
      const u = points.uniforms;
      gl.uniformMatrix4fv(u.viewProjection, false, Float32Array.from(rotated));
      gl.uniform1f(u.pointSize, options.size);
      gl.uniform1f(u.pixelScale, pixelScale);
      gl.uniform1f(u.maxPointSize, MAX_POINT_SIZE);
      gl.uniform3fv(u.stops, Float32Array.from(HEAT_STOPS.flatMap((stop) => canvasColour(stop.map((v) => v / 255)))));
      gl.uniform1i(u.source, source === 'colour' ? 0 : 1);
      gl.uniform1i(u.round, options.shape === 'round' ? 1 : 0);
      for (const entry of selection.drawn) {
        const node = nodes[entry.id];
        gl.bindVertexArray(vertexArray(node));
        if (source !== 'colour') {
          gl.bindBuffer(gl.ARRAY_BUFFER, node.buffer);
          gl.enableVertexAttribArray(2);
          gl.vertexAttribPointer(2, 1, gl.UNSIGNED_BYTE, false, 1, node.heatOffsets[source]);
        } else {
          gl.disableVertexAttribArray(2);
          gl.vertexAttrib1f(2, 0);
        }
        gl.uniform3f(u.nodeOffset, node.origin[0] - e[0], node.origin[1] - e[1], node.origin[2] - e[2]);
        gl.uniform1f(u.nodeStep, node.size / 65535);
        gl.uniform1f(u.spacing, spacing(node));
        gl.drawArrays(gl.POINTS, 0, entry.count);
      }
      gl.bindVertexArray(null);
      if (options.edl) {
        gl.bindFramebuffer(gl.FRAMEBUFFER, null);
        colourTexture = target.color;
        depthTexture = target.depth;
      }
    }
    gl.disable(gl.DEPTH_TEST);
    if (options.edl) {
      gl.useProgram(edl.program);
      gl.activeTexture(gl.TEXTURE0);
      gl.bindTexture(gl.TEXTURE_2D, colourTexture);
      gl.activeTexture(gl.TEXTURE1);
      gl.bindTexture(gl.TEXTURE_2D, depthTexture);
      gl.uniform1i(edl.uniforms.sceneColor, 0);
      gl.uniform1i(edl.uniforms.sceneDepth, 1);
      gl.uniform1f(edl.uniforms.farPlusNear, far + near);
      gl.uniform1f(edl.uniforms.farMinusNear, far - near);
      gl.uniform1f(edl.uniforms.strength, EDL_STRENGTH);
      gl.uniform2i(edl.uniforms.lastPixel, canvas.width - 1, canvas.height - 1);
      gl.drawArrays(gl.TRIANGLES, 0, 3);
    } else if (onPage) {
      gl.useProgram(copy.program);
      gl.activeTexture(gl.TEXTURE0);
      gl.bindTexture(gl.TEXTURE_2D, colourTexture);
      gl.uniform1i(copy.uniforms.sceneColor, 0);
      gl.drawArrays(gl.TRIANGLES, 0, 3);
    }
    // One pixel read back waits until the frame is drawn (gl.finish does not, in a browser whose
    // GPU work runs in another process): the status's time is the frame's whole cost.
    gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, onePixel);
    lastDrawn = performance.now();
    const ms = lastDrawn - started;
    const complete = selection.waiting === 0 && inFlight === 0 && queue.length === 0;
    statusLine.textContent = selection.total.toLocaleString('en-US') + ' points drawn · ' + selection.drawn.length + ' nodes · ' + Math.round(ms) + ' ms'
      + (complete ? '' : ' · loading');
    statusLine.dataset.points = String(selection.total);
    statusLine.dataset.nodes = String(selection.drawn.length);
    statusLine.dataset.loaded = String(nodes.filter((n) => n.state === 'loaded').length);
    statusLine.dataset.complete = String(complete);
    statusLine.dataset.ms = ms.toFixed(1);
    statusLine.dataset.frame = String(++frames);
    statusLine.dataset.colourSpace = displayP3 ? 'display-p3' : 'srgb';
    statusLine.dataset.raster = onPage ? 'page' : 'webgl';
  }

  // ---- Measuring: the drawn point nearest the click (within 8 pixels), twice. ----
  let measuring = false, picks = [];
  function pick(x, y) {
    if (!lastSelection) return null;
    const { selection, viewProjection } = lastSelection;
    const w = canvas.width, h = canvas.height;
    let best = null;
    for (const entry of selection.drawn) {
      const node = nodes[entry.id], step = node.size / 65535, q = node.positions;
      for (let i = 0; i < entry.count; i++) {
        const p = [node.origin[0] + q[3 * i] * step, node.origin[1] + q[3 * i + 1] * step, node.origin[2] + q[3 * i + 2] * step];
        const m = viewProjection;
        const cw = m[3] * p[0] + m[7] * p[1] + m[11] * p[2] + m[15];
        if (cw <= 0) continue;
        const sx = ((m[0] * p[0] + m[4] * p[1] + m[8] * p[2] + m[12]) / cw * 0.5 + 0.5) * w;
        const sy = (0.5 - (m[1] * p[0] + m[5] * p[1] + m[9] * p[2] + m[13]) / cw * 0.5) * h;
        const d2 = (sx - x) * (sx - x) + (sy - y) * (sy - y);
        if (d2 > 64) continue;
        if (!best || d2 < best.d2 - 1e-9 || (Math.abs(d2 - best.d2) <= 1e-9 && cw < best.w)) best = { d2, w: cw, p };
      }
    }
    return best && best.p;
  }
  function measureAt(x, y) {
    const p = pick(x, y);
    if (!p) { measureLine.textContent = 'no point under the cursor'; return; }
    picks.push(p);
    if (picks.length === 1) measureLine.textContent = 'first point picked; click the second';
    else {
      const d = length(sub(picks[1], picks[0]));
      measureLine.textContent = 'distance ' + d.toFixed(3) + ' m';
      measureLine.dataset.metres = String(d);
      picks = [];
    }
  }

  // ---- Input: mouse and touch through pointer events. ----
  const pointers = new Map();
  let gesture = null;
  function clampPitch() { camera.pitch = Math.min(Math.max(camera.pitch, -89), 89); }
  function pan(dx, dy) {
    const t = Math.tan(FOV_Y / 2) * camera.distance, { right, up } = axes();
    const sx = 2 * dx / canvas.clientHeight, sy = 2 * dy / canvas.clientHeight;
    camera.target = add(sub(camera.target, scale(right, sx * t)), scale(up, sy * t));
  }
  function zoom(factor) {
    const minimum = Math.max(camera.focusRadius, 1e-6) * 1e-3, maximum = Math.max(camera.sceneRadius, camera.focusRadius, 1e-6) * 1e3;
    camera.distance = Math.min(Math.max(camera.distance * factor, minimum), maximum);
  }
  function interacting() {
    moving = true;
    clearTimeout(interacting.timer);
    interacting.timer = setTimeout(() => { moving = false; redraw(); }, 200);
    writeHash();
    redraw();
  }
  canvas.addEventListener('pointerdown', (event) => {
    canvas.setPointerCapture(event.pointerId);
    pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    gesture = { button: event.button, shift: event.shiftKey, moved: false, x: event.clientX, y: event.clientY };
  });
  canvas.addEventListener('pointermove', (event) => {
    const last = pointers.get(event.pointerId);
    if (!last) return;
    const dx = event.clientX - last.x, dy = event.clientY - last.y;
    if (pointers.size === 2) {
      const [a, b] = [...pointers.entries()];
      const other = a[0] === event.pointerId ? b[1] : a[1];
      const before = Math.hypot(last.x - other.x, last.y - other.y), after = Math.hypot(event.clientX - other.x, event.clientY - other.y);
      if (before > 0 && after > 0) zoom(before / after);
      pan(dx / 2, dy / 2);
    } else if (gesture && (gesture.button === 2 || gesture.button === 1 || gesture.shift)) {
      pan(dx, dy);
    } else {
      camera.yaw -= dx * 0.3;
      camera.pitch += dy * 0.3;
      clampPitch();
    }
    pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (gesture && Math.hypot(event.clientX - gesture.x, event.clientY - gesture.y) > 3) gesture.moved = true;
    interacting();
  });
  const release = (event) => {
    const ratio = window.devicePixelRatio || 1;
    if (measuring && gesture && !gesture.moved && pointers.size === 1) measureAt(event.offsetX * ratio, event.offsetY * ratio);
    pointers.delete(event.pointerId);
    if (pointers.size === 0) gesture = null;
  };
  canvas.addEventListener('pointerup', release);
  canvas.addEventListener('pointercancel', (event) => { pointers.delete(event.pointerId); gesture = null; });
  canvas.addEventListener('contextmenu', (event) => event.preventDefault());
  canvas.addEventListener('wheel', (event) => { event.preventDefault(); zoom(Math.exp(event.deltaY * 0.001)); interacting(); }, { passive: false });

  function setButtons() {
    document.getElementById('edl').classList.toggle('on', options.edl);
    document.getElementById('measuring').classList.toggle('on', measuring);
    document.getElementById('colour').textContent = options.source === 'colour' ? 'Colour' : options.source === 'views' ? 'Views' : 'Spread';
    canvas.classList.toggle('measuring', measuring);
  }
  const actions = {
    edl: () => { options.edl = !options.edl; },
    smaller: () => { options.size = Math.max(1, options.size - 1); },
    larger: () => { options.size = Math.min(MAX_POINT_SIZE, options.size + 1); },
    background: () => { const names = Object.keys(BACKGROUNDS); options.background = names[(names.indexOf(options.background) + 1) % names.length]; },
    colour: () => {
      const available = SOURCES.filter((s) => s === 'colour' || meta.heat[s]);
      options.source = available[(available.indexOf(options.source) + 1) % available.length];
      if (options.source !== 'colour') measureLine.textContent = options.source === 'views'
        ? 'views: observations a point, blue 1 → yellow 256+ (log scale), grey unseen'
        : 'spread: colour standard deviation of a point\'s observations, blue 0 → yellow 0.1+, grey unseen';
      else measureLine.textContent = '';
    },
    measuring: () => { measuring = !measuring; picks = []; measureLine.textContent = measuring ? 'click two points' : ''; },
    frame: () => { fit(meta.framing); },
  };
  for (const [id, action] of Object.entries(actions)) {
    document.getElementById(id).addEventListener('click', () => { if (!meta) return; action(); setButtons(); writeHash(); redraw(); });
  }
  const keys = { e: 'edl', '-': 'smaller', '+': 'larger', '=': 'larger', b: 'background', h: 'colour', m: 'measuring', f: 'frame' };
  window.addEventListener('keydown', (event) => {
    const action = keys[event.key.toLowerCase()];
    if (!action || !meta) return;
    actions[action]();
    setButtons();
    writeHash();
    redraw();
  });
  window.addEventListener('resize', redraw);

  // The view back into the URL, so a link shows what the sender saw.
  let writingHash = false;
  function writeHash() {
    const parts = ['yaw=' + camera.yaw.toFixed(1), 'pitch=' + camera.pitch.toFixed(1), 'distance=' + camera.distance.toPrecision(5),
      'edl=' + (options.edl ? 'on' : 'off')];
    if (options.size !== 4) parts.push('point-size=' + options.size);
    if (options.background !== 'dark') parts.push('background=' + options.background);
    if (options.source !== 'colour') parts.push('color=' + options.source);
    if (options.budget) parts.push('budget=' + options.budget);
    if (!options.ui) parts.push('ui=off');
    if (options.raster !== 'auto') parts.push('raster=' + options.raster);
    writingHash = true;
    history.replaceState(null, '', '#' + parts.join('&'));
    writingHash = false;
  }
  function applyView() {
    readHash();
    camera.yaw = options.yaw !== null ? options.yaw : meta.view.yaw;
    camera.pitch = options.pitch !== null ? options.pitch : meta.view.pitch;
    clampPitch();
    resize();
    fit(meta.framing);
    if (options.distance !== null && options.distance > 0) camera.distance = options.distance;
    setButtons();
    redraw();
  }
  window.addEventListener('hashchange', () => { if (!writingHash && meta) applyView(); });

  // A hook for tests and embedding pages: set the view, read the state.
  window.pointpaint = {
    setView(view) {
      if (view.yaw !== undefined) camera.yaw = view.yaw;
      if (view.pitch !== undefined) { camera.pitch = view.pitch; clampPitch(); }
      if (view.distance !== undefined) camera.distance = view.distance;
      if (view.target !== undefined) camera.target = view.target.slice();
      redraw();
    },
    state() { return { camera: JSON.parse(JSON.stringify(camera)), status: Object.assign({}, statusLine.dataset) }; },
    // The canvas's pixels as drawn (bottom row first), in its colour space: [r, g, b, a, …].
    pixels(x = 0, y = 0, width = canvas.width, height = canvas.height) {
      const out = new Uint8Array(4 * width * height);
      gl.bindFramebuffer(gl.FRAMEBUFFER, null);
      gl.readPixels(x, y, width, height, gl.RGBA, gl.UNSIGNED_BYTE, out);
      return Array.from(out);
    },
  };

  async function start() {
    const response = await fetch('cloud/metadata.json');
    if (!response.ok) throw new Error('cloud/metadata.json: HTTP ' + response.status);
    const metadata = await response.json();
    const hierarchy = await fetch('cloud/hierarchy.bin');
    if (!hierarchy.ok) throw new Error('cloud/hierarchy.bin: HTTP ' + hierarchy.status);
    parseHierarchy(await hierarchy.arrayBuffer());
    if (nodes.length !== metadata.nodes) throw new Error('cloud/hierarchy.bin: expected ' + metadata.nodes + ' nodes, found ' + nodes.length);
    meta = metadata;
    displayP3 = meta.wideColour === true && 'drawingBufferColorSpace' in gl;
    if (displayP3) gl.drawingBufferColorSpace = 'display-p3';
    applyView();
  }
  start().catch((error) => { statusLine.textContent = 'not loaded'; showMessage(error.message); });
})();
