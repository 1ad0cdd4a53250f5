// The WebGL2 renderer of tiled (multires and cubemap) panoramas: each tile a texture, drawn
// as the flat square it is on the cube, from the polygon the Swift core gives
// (`viewer_tile_plan`: which tiles, in which order, each in the camera's frame already cut
// short of the camera's plane, and the focal length). Coarse tiles are drawn first and finer ones over them, so a tile still loading
// shows its coarser cover, never a hole. This file owns textures and the shader only.

import { linkProgram } from './panorama-gl.js';

const VERTEX = `#version 300 es
in vec3 position;
in vec2 corner;
uniform float focal;
uniform vec2 viewSize;
out vec2 texel;
void main() {
  // A point of the camera's frame, in front of it (the core cut each tile short of the
  // camera's plane): w = depth, and the GPU's perspective divide does the rest, exactly, as
  // the tile is flat.
  gl_Position = vec4(position.x * focal / (0.5 * viewSize.x), position.y * focal / (0.5 * viewSize.y), 0.0, position.z);
  texel = corner;
}`;

const FRAGMENT = `#version 300 es
precision highp float;
uniform sampler2D tile;
in vec2 texel;
out vec4 color;
void main() { color = vec4(texture(tile, texel).rgb, 1.0); }`;

export class TileGL {
  /** A WebGL2 context on its own canvas, or `null` where there is none. */
  static create() {
    const c = document.createElement('canvas');
    const gl = c.getContext('webgl2', { alpha: false, antialias: false, preserveDrawingBuffer: true });
    return gl ? new TileGL(c, gl) : null;
  }

  constructor(canvas, gl) {
    this.canvas = canvas;
    this.gl = gl;
    const program = linkProgram(gl, VERTEX, FRAGMENT);
    this.uniforms = {};
    for (const name of ['focal', 'viewSize', 'tile']) this.uniforms[name] = gl.getUniformLocation(program, name);
    this.buffer = gl.createBuffer();
    gl.bindBuffer(gl.ARRAY_BUFFER, this.buffer);
    const position = gl.getAttribLocation(program, 'position'), corner = gl.getAttribLocation(program, 'corner');
    gl.enableVertexAttribArray(position);
    gl.vertexAttribPointer(position, 3, gl.FLOAT, false, 20, 0);
    gl.enableVertexAttribArray(corner);
    gl.vertexAttribPointer(corner, 2, gl.FLOAT, false, 20, 12);
    this.vertices = new Float32Array(25); // five points at most, x y z u v each
    this.textures = new Map(); // id -> { texture, bytes }
    this.textureBytes = 0;
  }

  /** Takes a decoded tile (an ImageBitmap, closed here) as the texture for `id`. */
  add(id, bitmap) {
    const gl = this.gl;
    this.drop(id);
    const texture = gl.createTexture();
    gl.bindTexture(gl.TEXTURE_2D, texture);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, gl.RGBA, gl.UNSIGNED_BYTE, bitmap);
    gl.generateMipmap(gl.TEXTURE_2D);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR_MIPMAP_LINEAR);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
    // RGBA8 and its mip levels: a third more.
    const bytes = Math.round(bitmap.width * bitmap.height * 4 * 4 / 3);
    bitmap.close();
    this.textures.set(id, { texture, bytes });
    this.textureBytes += bytes;
  }

  /** Frees tile `id`'s texture. */
  drop(id) {
    const t = this.textures.get(id);
    if (!t) return;
    this.gl.deleteTexture(t.texture);
    this.textures.delete(id);
    this.textureBytes -= t.bytes;
  }

  /** Frees every tile (a new scene). */
  clear() {
    for (const id of [...this.textures.keys()]) this.drop(id);
  }

  /** Draws `plan` (the core's `viewer_tile_plan` answer) at w×h device pixels. */
  render(plan, w, h, background = [0, 0, 0]) {
    const gl = this.gl, u = this.uniforms;
    if (this.canvas.width !== w || this.canvas.height !== h) { this.canvas.width = w; this.canvas.height = h; }
    gl.viewport(0, 0, w, h);
    gl.clearColor(background[0], background[1], background[2], 1);
    gl.clear(gl.COLOR_BUFFER_BIT);
    gl.uniform1f(u.focal, plan.focal);
    gl.uniform2f(u.viewSize, w, h);
    gl.uniform1i(u.tile, 0);
    gl.activeTexture(gl.TEXTURE0);
    const v = this.vertices;
    let drawn = 0;
    for (const t of plan.draw) {
      const entry = this.textures.get(t.id);
      const points = t.polygon.length / 5;
      if (!entry || points < 3) continue;
      v.set(t.polygon);
      gl.bufferData(gl.ARRAY_BUFFER, v.subarray(0, t.polygon.length), gl.DYNAMIC_DRAW);
      gl.bindTexture(gl.TEXTURE_2D, entry.texture);
      gl.drawArrays(gl.TRIANGLE_FAN, 0, points);
      drawn++;
    }
    return drawn;
  }

  /** Frees the textures and gives the context back. */
  destroy() {
    this.clear();
    this.gl.getExtension('WEBGL_lose_context')?.loseContext();
    this.canvas.width = this.canvas.height = 1;
  }
}
