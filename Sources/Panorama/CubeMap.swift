import CoreMath

/// A panorama as six square faces in Pannellum's order (front, right, back, left, up, down;
/// its `cubeMap` list), oriented as ``CubeFace`` says. Sampled bilinearly with no seam: a
/// tap past a face's edge reads the neighbouring face's texel there, as cube-map hardware
/// does, so an edge is as smooth as a face's middle.
///
/// Drawn by the cube grid renderer (`CubeRendering`): rays cast at 16-pixel block corners,
/// mip levels when ``withMipLevels()`` built them.
public struct CubeMap: Sendable {
  /// Face size in pixels.
  public let size: Int
  /// The six faces, `size`×`size` each.
  public let faces: [RGBAImage]
  /// Mip levels 1, 2, …: six faces each, halved from the level before (empty unless
  /// ``withMipLevels()`` built them).
  public internal(set) var mipFaces: [[RGBAImage]] = []
  /// The mip levels' face sizes.
  var mipSizes: [Int] = []

  /// `nil` unless there are six square faces of one size.
  public init?(faces: [RGBAImage]) {
    guard faces.count == 6, let size = faces.first?.width, size > 0,
      faces.allSatisfy({ $0.width == size && $0.height == size })
    else { return nil }
    self.size = size
    self.faces = faces
  }

  /// Six `size`-pixel faces cut from an equirectangular (or any) source by its renderer:
  /// each face is a 90° rectilinear view (what a tiler writes).
  public static func faces<E: RowExecutor>(from renderer: inout PanoramaRenderer, size: Int, executor: E) -> CubeMap {
    let half = Elementary.halfPi
    let views = [
      ViewAngles(), ViewAngles(yaw: half), ViewAngles(yaw: 2 * half), ViewAngles(yaw: -half),
      ViewAngles(pitch: half), ViewAngles(pitch: -half),
    ]
    var faces: [RGBAImage] = []
    for view in views {
      var face = RGBAImage(width: size, height: size)
      renderer.renderPerspective(view: view, hfov: half, into: &face, executor: executor)
      faces.append(face)
    }
    return CubeMap(faces: faces)!
  }

  /// The texel (`tx`, `ty`) of `face`, or of the face it falls on when it is past an edge.
  @inline(__always) func texel(_ face: Int, _ tx: Int, _ ty: Int) -> UInt32 {
    if tx >= 0, ty >= 0, tx < size, ty < size { return faces[face].pixels[ty * size + tx] }
    let s = Double(size)
    let d = CubeFace.direction(face: face, u: (Double(tx) + 0.5) / s, v: (Double(ty) + 0.5) / s)
    let (f, u, v) = CubeFace.locate(x: d.x, y: d.y, z: d.z)
    let x = min(max(Int(u * s), 0), size - 1), y = min(max(Int(v * s), 0), size - 1)
    return faces[f].pixels[y * size + x]
  }

  /// The colour seen in direction (`x`, `y`, `z`): bilinear between the four nearest texels,
  /// across face edges where they lie.
  public func sample(x: Double, y: Double, z: Double) -> UInt32 {
    Self.bilinear(x: x, y: y, z: z, size: size) { texel($0, $1, $2) }
  }

  /// Bilinear between the four texels of a `size`-pixel cube nearest direction (`x`, `y`,
  /// `z`), read through `texel(face, tx, ty)` (which answers past a face's edges too).
  @inline(__always) static func bilinear(
    x: Double, y: Double, z: Double, size: Int, texel: (Int, Int, Int) -> UInt32
  ) -> UInt32 {
    let (face, u, v) = CubeFace.locate(x: x, y: y, z: z)
    let px = u * Double(size) - 0.5, py = v * Double(size) - 0.5
    let x0 = Int(px.rounded(.down)), y0 = Int(py.rounded(.down))
    let fx = px - Double(x0), fy = py - Double(y0)
    let taps = (texel(face, x0, y0), texel(face, x0 + 1, y0), texel(face, x0, y0 + 1), texel(face, x0 + 1, y0 + 1))
    var out: UInt32 = 0
    for shift in stride(from: 0, through: 24, by: 8) {
      func channel(_ p: UInt32) -> Double { Double((p >> UInt32(shift)) & 0xFF) }
      let top = channel(taps.0) + (channel(taps.1) - channel(taps.0)) * fx
      let bottom = channel(taps.2) + (channel(taps.3) - channel(taps.2)) * fx
      let value = top + (bottom - top) * fy
      out |= UInt32(min(max(value.rounded(), 0), 255)) << UInt32(shift)
    }
    return out
  }

  /// The ray through output pixel (`i`, `j`)'s centre of a `width`×`height` view (its
  /// top-left corner unless `centred`), in the cube's frame: the lens's inverse projection,
  /// pitched about x (up is +y), then yawed about y (right is +x).
  @inline(__always) static func ray(
    _ i: Int, _ j: Int, width: Int, height: Int, focal: Double, lens: Lens, yaw: (Double, Double),
    pitch: (Double, Double), roll: (Double, Double) = (0, 1), centred: Bool = true
  ) -> (x: Double, y: Double, z: Double) {
    let half = centred ? 0.5 : 0
    return ray(
      x: Double(i) + half, y: Double(j) + half, width: width, height: height, focal: focal, lens: lens, yaw: yaw,
      pitch: pitch, roll: roll)
  }

  /// The ray through the point (`x`, `y`) of a `width`×`height` view (pixels from its top-left
  /// corner: pixel (i, j)'s centre is (i + 0.5, j + 0.5)), as ``ray(_:_:width:height:focal:lens:yaw:pitch:roll:centred:)``.
  @inline(__always) static func ray(
    x: Double, y: Double, width: Int, height: Int, focal: Double, lens: Lens, yaw: (Double, Double),
    pitch: (Double, Double), roll: (Double, Double)
  ) -> (x: Double, y: Double, z: Double) {
    let sx = (x - Double(width) / 2) / focal
    let sy = (Double(height) / 2 - y) / focal
    let q = lens.ray(x: sx, y: sy)
    // Roll about the view axis first, as the grid renderer's camera does.
    let r = (x: q.x * roll.1 + q.y * roll.0, y: q.y * roll.1 - q.x * roll.0, z: q.z)
    let y1 = r.y * pitch.1 + r.z * pitch.0, z1 = r.z * pitch.1 - r.y * pitch.0
    return (r.x * yaw.1 + z1 * yaw.0, y1, z1 * yaw.1 - r.x * yaw.0)
  }

  /// Draws the view into `output` (every lens, with roll) with the cube grid renderer, its
  /// blocks stepped four pixels at a time through `kernel` (`nil`: the portable Swift loop;
  /// the host injects a CPU's own, as for ``PanoramaRenderer/groupKernel``).
  public func render<E: RowExecutor>(
    view: ViewAngles, hfov: Double, lens: Lens = .rectilinear, into output: inout RGBAImage, executor: E,
    kernel: GroupKernel? = nil
  ) {
    CubeRendering.render(self, view: view, hfov: hfov, lens: lens, into: &output, kernel: kernel) {
      executor.run($0, $1)
    }
  }

  /// Draws the view as ``render(view:hfov:lens:into:executor:kernel:)`` does, but every pixel
  /// by its own ray between its block's corner rays: the reference the stepped blocks are
  /// tested and timed against.
  public func renderReference<E: RowExecutor>(
    view: ViewAngles, hfov: Double, lens: Lens = .rectilinear, into output: inout RGBAImage, executor: E
  ) {
    CubeRendering.render(self, view: view, hfov: hfov, lens: lens, into: &output, stepped: false) {
      executor.run($0, $1)
    }
  }

  /// Draws the view by casting every pixel's own ray, at the finest level: the slow,
  /// direct reference the grid renderer is tested and timed against.
  public func renderDirect<E: RowExecutor>(
    view: ViewAngles, hfov: Double, lens: Lens = .rectilinear, into output: inout RGBAImage, executor: E
  ) {
    let cube = self
    Self.render(view: view, hfov: hfov, lens: lens, into: &output, executor: executor) { cube.sample(x: $0, y: $1, z: $2) }
  }

  /// Draws a view by casting each pixel's ray and asking `sample` for its colour.
  static func render<E: RowExecutor>(
    view: ViewAngles, hfov: Double, lens: Lens, into output: inout RGBAImage, executor: E,
    sample: @escaping @Sendable (Double, Double, Double) -> UInt32
  ) {
    let width = output.width, height = output.height
    guard width > 0, height > 0 else { return }
    let focal = lens.focalLength(hfov: hfov, width: Double(width))
    let yaw = Elementary.sinCos(view.yaw), pitch = Elementary.sinCos(view.pitch), roll = Elementary.sinCos(view.roll)
    output.pixels.withUnsafeMutableBufferPointer { out in
      let shared = SharedPixels(base: out.baseAddress!, source: UnsafePointer(out.baseAddress!))
      executor.run(height) { j in
        for i in 0..<width {
          let d = ray(i, j, width: width, height: height, focal: focal, lens: lens, yaw: yaw, pitch: pitch, roll: roll)
          shared.base[j * width + i] = sample(d.x, d.y, d.z)
        }
      }
    }
  }
}
