import CoreMath

extension YUVRenderer {
  /// The reference view: every pixel's direction evaluated exactly, luma and chroma tapped
  /// bilinearly in float64 at the same positions (wrapping and clamping as `render` does),
  /// converted exactly and rounded once. Slow (a ray and two tapped planes per pixel);
  /// `render` is held to it in the tests.
  public func renderExact(
    view: ViewAngles, hfov: Double, lens: Lens = .rectilinear, eye: Double? = nil, from planes: YUVPlanes,
    width w: Int, height h: Int
  ) -> RGBAImage {
    let eye = eye.map { min(max($0.isFinite ? $0 : 0, 0), 1) }
    let (view, fov) = Self.safe(view, hfov, lens, eye: eye)
    let mapping = Mapping(width: w, height: h, view: view, hfov: fov, lens: lens, eye: eye, video: video)
    var out = RGBAImage(width: w, height: h)
    for y in 0..<h {
      for x in 0..<w {
        if let radius = mapping.camera.visibleRadius {
          let c = mapping.camera
          let px = (Double(x) + 0.5 - c.cx) / c.focal, py = (c.cy - Double(y) - 0.5) / c.focal
          if px * px + py * py > radius * radius { continue }
        }
        let p = sourcePosition(mapping.direction(Double(x), Double(y)))
        let c = planes.siting.chroma(x: p.u, y: p.v)
        let deep = planes.bitDepth > 8
        guard let l = exactTap(planes.y, planes.yStride, planes.width, planes.height, p.u, p.v, deep: deep),
          let cb = exactTap(planes.u, planes.uStride, planes.chromaWidth, planes.chromaHeight, c.x, c.y, deep: deep),
          let cr = exactTap(planes.v, planes.vStride, planes.chromaWidth, planes.chromaHeight, c.x, c.y, deep: deep)
        else { continue }
        let rgb = planes.colour.rgb(y: l, u: cb, v: cr)
        func byte(_ x: Double) -> UInt8 { UInt8(min(max(x.rounded(), 0), 255)) }
        out[x, y] = RGBAImage.pack(r: byte(rgb.r), g: byte(rgb.g), b: byte(rgb.b))
      }
    }
    return out
  }

  /// A float64 bilinear tap at (`u`, `v`) (pixel centres at integers), wrapping across a
  /// full 360° plane and clamping at the poles; nil outside a partial source.
  func exactTap(
    _ plane: UnsafePointer<UInt8>, _ stride: Int, _ pw: Int, _ ph: Int, _ u: Double, _ v: Double, deep: Bool = false
  ) -> Double? {
    guard u.isFinite, v.isFinite else { return nil }
    var u = u
    if wraps { u -= (u / Double(pw)).rounded(.down) * Double(pw) }
    let fu = u.rounded(.down), fv = v.rounded(.down)
    let fx = u - fu, fy = v - fv
    var x0 = Int(fu), y0 = Int(fv)
    var x1 = x0 + 1, y1 = y0 + 1
    if wraps {
      if x0 >= pw { x0 -= pw }
      x1 = x0 + 1 == pw ? 0 : x0 + 1
    } else {
      if x0 < -1 || x0 >= pw { return nil }
      x0 = max(x0, 0)
      x1 = min(x1, pw - 1)
    }
    var wy = fy
    if y0 < 0 || y0 >= ph - 1 {
      if !coversPoles && (y0 < -1 || y0 >= ph) { return nil }
      y0 = y0 < 0 ? 0 : ph - 1
      y1 = y0
      wy = 0
    }
    // 10-bit samples in 8-bit units (a quarter), as the renderer's `deepPixel` reads them.
    func at(_ x: Int, _ y: Int) -> Double {
      guard deep else { return Double(plane[y * stride + x]) }
      let word = UnsafeRawPointer(plane).loadUnaligned(fromByteOffset: y * stride + 2 * x, as: UInt16.self)
      return Double(UInt16(littleEndian: word) & 1023) / 4
    }
    let top = at(x0, y0) * (1 - fx) + at(x1, y0) * fx
    let bottom = at(x0, y1) * (1 - fx) + at(x1, y1) * fx
    return top * (1 - wy) + bottom * wy
  }
}
