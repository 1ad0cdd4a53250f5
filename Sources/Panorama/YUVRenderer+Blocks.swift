import CoreMath

/// One frame's drawing state, shared read-only by the bands: the nodes, the planes, the
/// shift, and how taps wrap and clamp.
struct YUVBlocks: @unchecked Sendable {
  let nodes: YUVRenderer.Nodes
  let planes: YUVPlanes
  let shift: Double, period: Double
  let wraps: Bool, coversPoles: Bool
  let mapping: YUVRenderer.Mapping
  let renderer: YUVRenderer
  let fixed: YUVColour.Fixed
  /// Luma and chroma sizes, and 0.25 chroma pixel in 32.32 for centre-sited chroma.
  let w: Int, h: Int, cw: Int, ch: Int
  let chromaShiftX: Int64
  /// The background in Y′CbCr (black in the clip's range) and RGBA.
  let blackY: UInt8
  /// Where a tap is well inside the planes (32.32 luma positions, u then v): 8 pixels from
  /// the sides and 4 from the top and bottom leave room for chroma's half-pixel offsets and
  /// for a kernel's four-byte loads. Empty for planes too small to have one.
  let interior: (u: (lo: Double, hi: Double), v: (lo: Double, hi: Double))
  let kernel: YUVKernel?
  /// 10-bit planes: 16-bit samples, drawn by the loops at `TenBit` (never by a kernel).
  let deep: Bool

  init(renderer: YUVRenderer, planes: YUVPlanes, shift: Double, mapping: YUVRenderer.Mapping) {
    nodes = renderer.nodes
    self.planes = planes
    self.shift = shift
    period = renderer.period
    wraps = renderer.wraps
    coversPoles = renderer.coversPoles
    self.mapping = mapping
    self.renderer = renderer
    fixed = YUVColour.Fixed(planes.colour)
    w = planes.width
    h = planes.height
    cw = planes.chromaWidth
    ch = planes.chromaHeight
    chromaShiftX = planes.siting == .centre ? 1 << 30 : 0
    blackY = planes.colour.fullRange ? 0 : 16
    let one = 4_294_967_296.0
    interior = (
      (8 * one, planes.width >= 18 ? Double(planes.width - 9) * one : -one),
      (4 * one, planes.height >= 10 ? Double(planes.height - 5) * one : -one)
    )
    kernel = renderer.kernel
    deep = planes.bitDepth > 8
  }

  struct Target: @unchecked Sendable {
    let y: UnsafeMutablePointer<UInt8>, u: UnsafeMutablePointer<UInt8>, v: UnsafeMutablePointer<UInt8>
    let width: Int, height: Int
  }

  struct RGBATarget: @unchecked Sendable {
    let base: UnsafeMutablePointer<UInt32>
    let width: Int
  }

  /// A block's mapping: per row, `a + b·x + c·x²` for u and for v, whose coefficients are
  /// quadratics in the row. Nil where a pole is in the block.
  struct Patch {
    /// (q0, linear, square) of a, b and c, for u then v.
    var u: (SIMD4<Double>, SIMD4<Double>, SIMD4<Double>)
    var v: (SIMD4<Double>, SIMD4<Double>, SIMD4<Double>)
    let x0: Int, y0: Int, width: Int, height: Int

    /// A row's stepper, 32.32 fixed point: value, first and second differences.
    @inline(__always) func row(_ r: Int) -> (u: Stepper, v: Stepper) {
      let t = Double(r)
      func along(_ q: (SIMD4<Double>, SIMD4<Double>, SIMD4<Double>)) -> Stepper {
        let f = q.0 + q.1 * t + q.2 * (t * t)
        // f[0], f[1], f[2]: the row's value at x = 0, width / 2, width.
        let n = Double(width)
        let b = (4 * f[1] - 3 * f[0] - f[2]) / n, c = 2 * (f[0] - 2 * f[1] + f[2]) / (n * n)
        let one = 4_294_967_296.0
        return Stepper(value: Int64(f[0] * one), difference: Int64((b + c) * one), second: Int64(2 * c * one))
      }
      return (along(u), along(v))
    }
  }

  struct Stepper {
    var value: Int64, difference: Int64
    let second: Int64
    @inline(__always) mutating func step() {
      value &+= difference
      difference &+= second
    }
  }

  func patch(band: Int, column: Int) -> Patch? {
    let x0 = nodes.columns[column], x1 = nodes.columns[column + 1]
    let y0 = nodes.rows[band], y1 = nodes.rows[band + 1]
    var u = [Double](repeating: 0, count: 9), v = u
    for j in 0..<3 {
      for i in 0..<3 {
        let g = (2 * band + j) * nodes.perRow + 2 * column + i
        u[3 * j + i] = nodes.u[g] + shift
        v[3 * j + i] = nodes.v[g]
      }
    }
    let half = period / 2
    for k in 1..<9 {
      if u[k] - u[0] > half { u[k] -= period } else if u[0] - u[k] > half { u[k] += period }
    }
    let lo = u.min()!, hi = u.max()!
    guard hi - lo < period / 8, u.allSatisfy({ $0.isFinite }), v.allSatisfy({ $0.isFinite && abs($0) < 1e9 }) else {
      return nil
    }
    // Into [0, period) at the left-most node, so a tap wraps by at most one period.
    if wraps {
      let k = (lo / period).rounded(.down) * period
      for i in 0..<9 { u[i] -= k }
    } else if lo < -1e9 || hi > 1e9 {
      return nil
    }
    let n = Double(y1 - y0)
    func columns(_ q: [Double]) -> (SIMD4<Double>, SIMD4<Double>, SIMD4<Double>) {
      var a = SIMD4<Double>(), b = a, c = a
      for i in 0..<3 {
        let q0 = q[i], q1 = q[3 + i], q2 = q[6 + i]
        a[i] = q0
        b[i] = (4 * q1 - 3 * q0 - q2) / n
        c[i] = 2 * (q0 - 2 * q1 + q2) / (n * n)
      }
      return (a, b, c)
    }
    return Patch(u: columns(u), v: columns(v), x0: x0, y0: y0, width: x1 - x0, height: y1 - y0)
  }

  /// The exact source position of output pixel (`x`, `y`), u shifted and in 32.32.
  func exact(_ x: Double, _ y: Double) -> (Int64, Int64) {
    let p = renderer.sourcePosition(mapping.direction(x, y))
    func fixedPoint(_ a: Double) -> Int64 { a.isFinite && abs(a) < 1e9 ? Int64(a * 4_294_967_296) : Int64.min / 2 }
    var u = p.u + shift
    if wraps { u -= (u / period).rounded(.down) * period }
    return (fixedPoint(u), fixedPoint(p.v))
  }

  // MARK: Taps

  /// Bilinear tap of a plane of `D` samples (`pw`×`ph`, `stride` bytes) at 32.32 (`u`, `v`),
  /// carried as `D` carries taps; nil outside a partial source.
  @inline(__always) func tap<D: YUVSampleDepth>(
    _ plane: UnsafePointer<UInt8>, _ stride: Int, _ pw: Int, _ ph: Int, _ u: Int64, _ v: Int64, _ depth: D.Type
  ) -> Int32? {
    var x0 = Int(truncatingIfNeeded: u >> 32), y0 = Int(truncatingIfNeeded: v >> 32)
    let fx = Int32(truncatingIfNeeded: (u >> 24) & 255), fy = Int32(truncatingIfNeeded: (v >> 24) & 255)
    var x1 = x0 + 1, y1 = y0 + 1
    if wraps {
      if x0 < 0 { x0 += pw } else if x0 >= pw { x0 -= pw }
      if x0 < 0 || x0 >= pw { x0 = 0 }
      x1 = x0 + 1 == pw ? 0 : x0 + 1
    } else {
      if x0 < -1 || x0 >= pw { return nil }
      x0 = max(x0, 0)
      x1 = min(x1, pw - 1)
    }
    if y0 < 0 || y0 >= ph - 1 {
      if !coversPoles && (y0 < -1 || y0 >= ph) { return nil }
      y0 = y0 < 0 ? 0 : ph - 1
      y1 = y0
    }
    let r0 = UnsafeRawPointer(plane + y0 &* stride), r1 = UnsafeRawPointer(plane + y1 &* stride)
    return D.carry(weigh(D.sample(r0, x0), D.sample(r0, x1), D.sample(r1, x0), D.sample(r1, x1), fx, fy))
  }

  /// Texels a, b (top row, left and right), c, d (bottom row) weighed by 8-bit fractions:
  /// the samples × 2¹⁶, unrounded.
  @inline(__always) func weigh(_ a: Int32, _ b: Int32, _ c: Int32, _ d: Int32, _ fx: Int32, _ fy: Int32) -> Int32 {
    let top = a &* 256 &+ (b &- a) &* fx, bottom = c &* 256 &+ (d &- c) &* fx
    return top &* 256 &+ (bottom &- top) &* fy
  }

  @inline(__always) func luma<D: YUVSampleDepth>(_ u: Int64, _ v: Int64, _ depth: D.Type) -> Int32? {
    tap(planes.y, planes.yStride, w, h, u, v, D.self)
  }

  /// Chroma at luma position (`u`, `v`) (32.32): both planes, or nil outside.
  @inline(__always) func chroma<D: YUVSampleDepth>(_ u: Int64, _ v: Int64, _ depth: D.Type) -> (Int32, Int32)? {
    let cu = (u >> 1) &- chromaShiftX, cv = (v >> 1) &- (1 << 30)
    guard let b = tap(planes.u, planes.uStride, cw, ch, cu, cv, D.self),
      let r = tap(planes.v, planes.vStride, cw, ch, cu, cv, D.self)
    else { return nil }
    return (b, r)
  }

  /// Whether output pixel (`x`, `y`) of a `width`-wide view lies outside the lens's circle.
  func outsideLens(_ x: Int, _ y: Int) -> Bool {
    guard let radius = mapping.camera.visibleRadius else { return false }
    let c = mapping.camera
    let px = (Double(x) + 0.5 - c.cx) / c.focal, py = (c.cy - Double(y) - 0.5) / c.focal
    return px * px + py * py > radius * radius
  }
}

/// How the loops read a plane's samples and carry a tap: one loop shape for 8- and 10-bit
/// planes, specialised for each (the generic loops are inlined or specialised in the module,
/// so the 8-bit loop's code is what it was).
protocol YUVSampleDepth {
  /// Whether the C kernels (`YUVKernel`) read these samples: bytes only.
  static var kernelsRead: Bool { get }
  /// Sample `x` of a row.
  static func sample(_ row: UnsafeRawPointer, _ x: Int) -> Int32
  /// A tap's weighed sum (samples × 2¹⁶) as the loops carry it.
  static func carry(_ sum: Int32) -> Int32
  /// A carried tap as an 8-bit output sample.
  static func byte(_ t: Int32) -> UInt8
  /// Carried luma and chroma taps as an RGBA pixel.
  static func pixel(_ fixed: YUVColour.Fixed, _ y: Int32, _ cb: Int32, _ cr: Int32) -> UInt32
}

/// 8-bit samples (bytes): each tap rounded to a byte at once.
enum EightBit: YUVSampleDepth {
  static var kernelsRead: Bool { true }
  @inline(__always) static func sample(_ row: UnsafeRawPointer, _ x: Int) -> Int32 {
    Int32(row.load(fromByteOffset: x, as: UInt8.self))
  }
  @inline(__always) static func carry(_ sum: Int32) -> Int32 { (sum &+ 32768) >> 16 }
  @inline(__always) static func byte(_ t: Int32) -> UInt8 { UInt8(truncatingIfNeeded: t) }
  @inline(__always) static func pixel(_ fixed: YUVColour.Fixed, _ y: Int32, _ cb: Int32, _ cr: Int32) -> UInt32 {
    fixed.pixel(y, cb, cr)
  }
}

/// 10-bit samples (`yuv420p10le`: 16-bit little-endian words, the top six bits ignored, as
/// FFmpeg leaves them zero): each tap kept unrounded (× 2¹⁶, `YUVColour.Fixed.deepPixel`) and
/// rounded once to the output.
enum TenBit: YUVSampleDepth {
  static var kernelsRead: Bool { false }
  @inline(__always) static func sample(_ row: UnsafeRawPointer, _ x: Int) -> Int32 {
    Int32(UInt16(littleEndian: row.loadUnaligned(fromByteOffset: x &* 2, as: UInt16.self)) & 1023)
  }
  @inline(__always) static func carry(_ sum: Int32) -> Int32 { sum }
  @inline(__always) static func byte(_ t: Int32) -> UInt8 { UInt8(min((t &+ (1 << 17)) >> 18, 255)) }
  @inline(__always) static func pixel(_ fixed: YUVColour.Fixed, _ y: Int32, _ cb: Int32, _ cr: Int32) -> UInt32 {
    fixed.deepPixel(y, cb, cr)
  }
}
