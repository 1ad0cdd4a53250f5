// The WebGL2 panorama renderer, shared by the demo page (imagestage.js) and the viewer
// (imagestage-viewer.js). Every number it draws with comes from the Swift core (the
// module's `gpu_view` answer: camera axes, focal length, lens, strip placement), so it shows
// exactly the CPU renderer's view; this file only owns textures and the shader.

const VERTEX = `#version 300 es
in vec2 corner;
void main() { gl_Position = vec4(corner, 0.0, 1.0); }`;

// Each pixel's direction, the same mapping as the CPU renderer (Panorama/Renderer.swift,
// CameraParameters), then the source position, sampled with mip levels from tiles of a
// texture array (as many as the source needs; each tile carries a border from its
// neighbours, so filtering never shows a seam).
const FRAGMENT = `#version 300 es
precision highp float;
precision highp sampler2DArray;
uniform sampler2DArray tiles;
uniform vec2 viewSize;
uniform int mode;        // 0 perspective, 1 strip
uniform int lens;        // Lens.allCases: rectilinear, stereographic, fisheye, equirectangular
uniform mat3 axes;
uniform float focal, yaw;
uniform vec2 fullSize;
uniform vec4 crop;       // left, top, width, height in full-panorama pixels
uniform vec2 sourceSize;
uniform bool wraps, cylindrical;
uniform vec2 tileSize;
uniform float pad;
uniform vec2 layerSize;
uniform ivec2 grid;      // columns, rows
uniform float stripWidth, stripOffset;
out vec4 color;
const float PI = 3.141592653589793;

void main() {
  vec2 frag = gl_FragCoord.xy;
  float u, v;
  bool outside = false;
  if (mode == 1) {
    float scale = sourceSize.y / viewSize.y;
    u = (frag.x - viewSize.x * 0.5 + stripWidth * 0.5 + stripOffset) * scale;
    v = (viewSize.y - frag.y) * scale;
  } else {
    vec2 p = (frag - viewSize * 0.5) / focal;
    vec3 c = vec3(p, 1.0);
    if (lens == 1) {
      c.z = 1.0 - dot(p, p) / 4.0;
    } else if (lens == 2) {
      float r = length(p);
      outside = r > PI;
      float s = r > 1e-6 ? sin(r) / r : 1.0;
      c = vec3(p * s, cos(r));
    } else if (lens == 3) {
      c = vec3(cos(p.y) * sin(p.x), sin(p.y), cos(p.y) * cos(p.x));
    }
    vec3 d = axes * c;
    float horizontal = length(d.xz);
    float x = (atan(d.x, d.z) + yaw) / (2.0 * PI) * fullSize.x + fullSize.x * 0.5;
    float y = cylindrical
      ? fullSize.y * 0.5 - d.y / max(horizontal, 1e-9) * fullSize.x / (2.0 * PI)
      : (0.5 - atan(d.y, horizontal) / PI) * fullSize.y;
    u = (x - crop.x) * sourceSize.x / crop.z;
    v = (y - crop.y) * sourceSize.y / crop.w;
  }
  float period = mode == 1 ? sourceSize.x : fullSize.x * sourceSize.x / crop.z;
  // Derivatives for the mip level, in uniform control flow, with the wrap's jump removed.
  vec2 dx = vec2(dFdx(u), dFdx(v)), dy = vec2(dFdy(u), dFdy(v));
  if (abs(dx.x) > period * 0.5) dx.x -= sign(dx.x) * period;
  if (abs(dy.x) > period * 0.5) dy.x -= sign(dy.x) * period;
  if (wraps) {
    u = mod(u, period);
  } else if (u < -0.5 || u > sourceSize.x + 0.5) {
    outside = true;
  }
  bool fullSphere = !cylindrical && crop.w >= fullSize.y - 0.5;
  if (!fullSphere && (v < -0.5 || v > sourceSize.y + 0.5)) outside = true;
  u = clamp(u, 0.5, sourceSize.x - 0.5);
  v = clamp(v, 0.5, sourceSize.y - 0.5);
  ivec2 t = min(ivec2(vec2(u, v) / tileSize), grid - 1);
  vec2 local = (vec2(u, v) - vec2(t) * tileSize + pad) / layerSize;
  vec4 texel = textureGrad(tiles, vec3(local, float(t.y * grid.x + t.x)), dx / layerSize, dy / layerSize);
  color = outside ? vec4(0.0, 0.0, 0.0, 1.0) : vec4(texel.rgb, 1.0);
}`;


/** Compiles and links a vertex and a fragment shader, and uses the program; throws the log. */
export function linkProgram(gl, vertex, fragment) {
  const shader = (type, source) => {
    const s = gl.createShader(type);
    gl.shaderSource(s, source);
    gl.compileShader(s);
    if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) throw new Error(gl.getShaderInfoLog(s));
    return s;
  };
  const program = gl.createProgram();
  gl.attachShader(program, shader(gl.VERTEX_SHADER, vertex));
  gl.attachShader(program, shader(gl.FRAGMENT_SHADER, fragment));
  gl.linkProgram(program);
  if (!gl.getProgramParameter(program, gl.LINK_STATUS)) throw new Error(gl.getProgramInfoLog(program));
  gl.useProgram(program);
  return program;
}

const PAD = 32; // border texels per tile side: mip levels up to 1/32 stay seamless
const SOFTWARE = /swiftshader|llvmpipe|software/i; // renderer names without a GPU

/**
 * Whether this browser gives WebGL2 and whether that is a software rasteriser, from a
 * throwaway context (no shader): `{ webgl2, software }`.
 */
export function probeWebGL2() {
  const gl = document.createElement('canvas').getContext('webgl2');
  if (!gl) return { webgl2: false, software: false };
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  const software = SOFTWARE.test(info ? String(gl.getParameter(info.UNMASKED_RENDERER_WEBGL)) : '');
  gl.getExtension('WEBGL_lose_context')?.loseContext();
  return { webgl2: true, software };
}

export class PanoramaGL {
  /**
   * A WebGL2 context on its own canvas, or `null` where there is none. `maxTexture` caps the
   * texture size (tests force tiling with it); `software` tells SwiftShader and llvmpipe
   * (no GPU) from a real GPU.
   */
  static create(maxTexture = 0) {
    const c = document.createElement('canvas');
    const gl = c.getContext('webgl2', { alpha: false, antialias: false, preserveDrawingBuffer: true });
    if (!gl) return null;
    return new PanoramaGL(c, gl, maxTexture);
  }

  constructor(canvas, gl, maxTexture) {
    this.canvas = canvas;
    this.gl = gl;
    const program = linkProgram(gl, VERTEX, FRAGMENT);
    const buffer = gl.createBuffer();
    gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
    gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([-1, -1, 1, -1, -1, 1, 1, 1]), gl.STATIC_DRAW);
    const corner = gl.getAttribLocation(program, 'corner');
    gl.enableVertexAttribArray(corner);
    gl.vertexAttribPointer(corner, 2, gl.FLOAT, false, 0, 0);
    this.uniforms = {};
    for (let i = 0; i < gl.getProgramParameter(program, gl.ACTIVE_UNIFORMS); i++) {
      const name = gl.getActiveUniform(program, i).name;
      this.uniforms[name] = gl.getUniformLocation(program, name);
    }
    this.limit = Math.min(gl.getParameter(gl.MAX_TEXTURE_SIZE), maxTexture || Infinity);
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    this.name = info ? String(gl.getParameter(info.UNMASKED_RENDERER_WEBGL)) : '';
    this.software = SOFTWARE.test(this.name);
    this.texture = null;
    this.source = null; // { width, height, geometry, grid, tile, layer }
    this.mipmapsPending = false;
  }

  /**
   * Uploads a decoded panorama (`bitmap`, with the core's `geometry`) as few tiles as the
   * texture size allows, each with a border from its neighbours. Returns the tiling.
   */
  upload(bitmap, geometry) {
    const gl = this.gl;
    const width = bitmap.width, height = bitmap.height;
    // Tiles (and so layers, with their 32-texel borders) a multiple of 64 texels: every mip
    // level down to 1/64 is then exactly half the one above and starts on the same lattice in
    // every tile, so neighbouring tiles' levels meet without a seam when zoomed out (odd sizes
    // drift by up to half a texel).
    const fit = Math.floor((this.limit - 2 * PAD) / 64) * 64;
    const grid = [Math.ceil(width / fit), Math.ceil(height / fit)];
    const tile = [Math.ceil(width / grid[0] / 64) * 64, Math.ceil(height / grid[1] / 64) * 64];
    const layer = [tile[0] + 2 * PAD, tile[1] + 2 * PAD];
    const levels = Math.floor(Math.log2(Math.max(layer[0], layer[1]))) + 1;
    if (this.texture) gl.deleteTexture(this.texture);
    this.texture = gl.createTexture();
    gl.bindTexture(gl.TEXTURE_2D_ARRAY, this.texture);
    gl.texStorage3D(gl.TEXTURE_2D_ARRAY, levels, gl.RGBA8, layer[0], layer[1], grid[0] * grid[1]);
    const scratch = new OffscreenCanvas(layer[0], layer[1]);
    const g = scratch.getContext('2d');
    const wraps = geometry.wraps;
    for (let ty = 0; ty < grid[1]; ty++) {
      for (let tx = 0; tx < grid[0]; tx++) {
        const ox = tx * tile[0] - PAD, oy = ty * tile[1] - PAD;
        g.clearRect(0, 0, layer[0], layer[1]);
        for (const shift of wraps ? [-width, 0, width] : [0]) g.drawImage(bitmap, shift - ox, -oy);
        // Above the first row and below the last, the edge row repeats (what clamping reads).
        if (oy < 0) g.drawImage(bitmap, 0, 0, width, 1, -ox, 0, width, -oy);
        const below = height - oy;
        if (below < layer[1]) g.drawImage(bitmap, 0, height - 1, width, 1, -ox, below, width, layer[1] - below);
        gl.texSubImage3D(gl.TEXTURE_2D_ARRAY, 0, 0, 0, ty * grid[0] + tx, layer[0], layer[1], 1, gl.RGBA, gl.UNSIGNED_BYTE, scratch);
      }
    }
    // The first frame samples the full-size level only; the mip levels follow a frame later,
    // so the picture shows as soon as the pixels are up (building them costs as much again).
    gl.texParameteri(gl.TEXTURE_2D_ARRAY, gl.TEXTURE_MAX_LEVEL, 0);
    gl.texParameteri(gl.TEXTURE_2D_ARRAY, gl.TEXTURE_MIN_FILTER, gl.LINEAR);
    gl.texParameteri(gl.TEXTURE_2D_ARRAY, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
    gl.texParameteri(gl.TEXTURE_2D_ARRAY, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
    gl.texParameteri(gl.TEXTURE_2D_ARRAY, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
    this.mipmapsPending = true;
    this.source = { width, height, geometry, grid, tile, layer };
    return { grid, tile, layer, textures: grid[0] * grid[1] };
  }

  /** Builds the mip levels the first frame went without; true if it did. */
  buildMipmaps() {
    if (!this.mipmapsPending || !this.texture) return false;
    const gl = this.gl;
    this.mipmapsPending = false;
    gl.bindTexture(gl.TEXTURE_2D_ARRAY, this.texture);
    gl.texParameteri(gl.TEXTURE_2D_ARRAY, gl.TEXTURE_MAX_LEVEL, 1000);
    gl.generateMipmap(gl.TEXTURE_2D_ARRAY);
    gl.texParameteri(gl.TEXTURE_2D_ARRAY, gl.TEXTURE_MIN_FILTER, gl.LINEAR_MIPMAP_LINEAR);
    return true;
  }

  /** Draws view `v` (the core's `gpu_view` answer) at w×h device pixels on its canvas. */
  render(v, w, h) {
    const gl = this.gl, u = this.uniforms, p = this.source, g = p.geometry;
    if (this.canvas.width !== w || this.canvas.height !== h) { this.canvas.width = w; this.canvas.height = h; }
    gl.viewport(0, 0, w, h);
    gl.uniform2f(u.viewSize, w, h);
    gl.uniform1i(u.mode, v.mode === 'strip' ? 1 : 0);
    gl.uniform1i(u.lens, v.lensIndex);
    gl.uniformMatrix3fv(u.axes, false, v.matrix);
    gl.uniform1f(u.focal, v.focal);
    gl.uniform1f(u.yaw, v.turn);
    gl.uniform2f(u.fullSize, g.fullWidth, g.fullHeight);
    gl.uniform4f(u.crop, g.croppedLeft, g.croppedTop, g.croppedWidth, g.croppedHeight);
    gl.uniform2f(u.sourceSize, p.width, p.height);
    gl.uniform1i(u.wraps, g.wraps ? 1 : 0);
    gl.uniform1i(u.cylindrical, g.projection === 'cylindrical' ? 1 : 0);
    gl.uniform2f(u.tileSize, p.tile[0], p.tile[1]);
    gl.uniform1f(u.pad, p.pad ?? PAD);
    gl.uniform2f(u.layerSize, p.layer[0], p.layer[1]);
    gl.uniform2i(u.grid, p.grid[0], p.grid[1]);
    gl.uniform1f(u.stripWidth, v.stripWidth);
    gl.uniform1f(u.stripOffset, v.stripOffset);
    gl.uniform1i(u.tiles, 0);
    gl.drawArrays(gl.TRIANGLE_STRIP, 0, 4);
  }

  /** The last frame's RGBA bytes, top row first. */
  readPixels(w, h) {
    const gl = this.gl;
    const bytes = new Uint8Array(w * h * 4);
    gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, bytes);
    // GL rows run bottom up.
    const row = w * 4, flipped = new Uint8Array(bytes.length);
    for (let y = 0; y < h; y++) flipped.set(bytes.subarray((h - 1 - y) * row, (h - y) * row), y * row);
    return flipped;
  }

  /** Waits for the GPU (a one-pixel read), as a display would. */
  finish() {
    const gl = this.gl;
    gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
  }

  /** Frees the texture and gives the context back (browsers cap live contexts at about 16). */
  destroy() {
    if (this.texture) this.gl.deleteTexture(this.texture);
    this.texture = null;
    this.gl.getExtension('WEBGL_lose_context')?.loseContext();
    this.canvas.width = this.canvas.height = 1;
  }
}
