import CoreMath
import Testing

@testable import Panorama

/// 10-bit planes (`yuv420p10le`: 16-bit little-endian words) drawn by the Swift loops,
/// held to the float64 reference reading the same words.
@Suite("YUV renderer, 10-bit planes")
struct YUVDeepTests {
  static let degree = Elementary.pi / 180

  /// A 10-bit 4:2:0 picture as FFmpeg lays it out: each row padded (a stride of more than
  /// two bytes a sample, as decoders' are), BT.709 limited range (64…940 luma).
  struct Deep {
    let width: Int, height: Int, stride: Int, chromaStride: Int
    var bytes: [UInt8]

    /// `value(x, y)` gives (Y, Cb, Cr) in 10-bit units at luma pixel (x, y); chroma takes
    /// the mean of its 2 × 2 block.
    init(width: Int, height: Int, _ value: (Int, Int) -> (Double, Double, Double)) {
      self.width = width
      self.height = height
      stride = 2 * width + 64
      chromaStride = width + 32
      bytes = [UInt8](repeating: 0xEE, count: stride * height + 2 * chromaStride * (height / 2))
      func put(_ offset: Int, _ x: Double) {
        let w = UInt16(min(max(x.rounded(), 0), 1023))
        bytes[offset] = UInt8(w & 255)
        bytes[offset + 1] = UInt8(w >> 8)
      }
      for y in 0..<height {
        for x in 0..<width { put(y * stride + 2 * x, value(x, y).0) }
      }
      let u = stride * height, v = u + chromaStride * (height / 2)
      for cy in 0..<height / 2 {
        for cx in 0..<width / 2 {
          var cb = 0.0, cr = 0.0
          for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            let s = value(2 * cx + dx, 2 * cy + dy)
            cb += s.1 / 4
            cr += s.2 / 4
          }
          put(u + cy * chromaStride + 2 * cx, cb)
          put(v + cy * chromaStride + 2 * cx, cr)
        }
      }
    }

    /// The sample panorama in 10 bits: its RGB converted exactly (so the low two bits carry
    /// the matrix's fractions), plus a gentle ramp no 8-bit plane can hold.
    static func sample(width: Int) -> Deep {
      let image = try! SamplePanorama.make(width: width)
      let (kr, kb) = (0.2126, 0.0722)
      let kg = 1 - kr - kb
      return Deep(width: image.width & ~1, height: image.height & ~1) { x, y in
        let p = RGBAImage.unpack(image[x, y])
        let r = Double(p.r), g = Double(p.g), b = Double(p.b)
        let l = kr * r + kg * g + kb * b
        let ramp = Double(x % 97) / 97
        return (
          4 * (16 + 219.0 / 255 * l) + ramp, 4 * (128 + 224.0 / 255 * (b - l) / (2 * (1 - kb))),
          4 * (128 + 224.0 / 255 * (r - l) / (2 * (1 - kr)))
        )
      }
    }

    func withPlanes<R>(_ body: (YUVPlanes) -> R) -> R {
      bytes.withUnsafeBufferPointer { b in
        let base = b.baseAddress!, u = stride * height, v = u + chromaStride * (height / 2)
        return body(
          try! YUVPlanes(
            width: width, height: height, bitDepth: 10, y: base, yStride: stride, u: base + u,
            uStride: chromaStride, v: base + v, vStride: chromaStride))
      }
    }
  }

  static let source = Deep.sample(width: 512)

  /// RGBA: the same bar as the 8-bit path (40 dB against the exact view); a misread word
  /// (bytes, or a wrong shift) puts it far off.
  @Test(
    "10-bit RGBA matches the exact float64 view",
    arguments: [
      (0.0, 0.0, 90.0, Lens.rectilinear), (40, 30, 90, .rectilinear), (10, 89, 90, .rectilinear),
      (30, -90, 250, .stereographic), (-170, 0, 360, .equirectangular),
    ])
  func rgbaMatchesExact(yaw: Double, pitch: Double, hfov: Double, lens: Lens) {
    let d = Self.degree
    let view = ViewAngles(yaw: yaw * d, pitch: pitch * d)
    var renderer = try! YUVRenderer(width: Self.source.width, height: Self.source.height, video: SphericalVideo(source: "t"))
    var fast = RGBAImage(width: 160, height: 90)
    let exact = Self.source.withPlanes { planes in
      try! renderer.render(view: view, hfov: hfov * d, lens: lens, from: planes, into: &fast, executor: InlineRows())
      return renderer.renderExact(view: view, hfov: hfov * d, lens: lens, from: planes, width: 160, height: 90)
    }
    let psnr = fast.psnr(against: exact)
    #expect(psnr > 40, "\(psnr) dB at yaw \(yaw) pitch \(pitch) \(lens)")
  }

  /// 4:2:0 out: every output sample against the exact tap of the 10-bit planes (in 8-bit
  /// units, unrounded), in the interior and across the seam and a pole. Rounded once, a
  /// smooth region is within half a level; the whole view's RMS stays under one level.
  @Test("10-bit to 4:2:0 output matches exact taps", arguments: [(0.0, 0.0), (178, 40), (0, 88)])
  func yuvMatchesExact(yaw: Double, pitch: Double) {
    let d = Self.degree
    let view = ViewAngles(yaw: yaw * d, pitch: pitch * d)
    var renderer = try! YUVRenderer(width: Self.source.width, height: Self.source.height, video: SphericalVideo(source: "t"))
    var out = YUVImage(width: 96, height: 64)
    Self.source.withPlanes { planes in
      try! renderer.render(view: view, hfov: 90 * d, from: planes, into: &out, executor: InlineRows())
      let mapping = YUVRenderer.Mapping(
        width: 96, height: 64, view: view, hfov: 90 * d, lens: .rectilinear, video: renderer.video)
      var lumaError = 0.0, chromaError = 0.0, near = 0
      for y in 0..<64 {
        for x in 0..<96 {
          let p = renderer.sourcePosition(mapping.direction(Double(x), Double(y)))
          let l = renderer.exactTap(planes.y, planes.yStride, planes.width, planes.height, p.u, p.v, deep: true)!
          let e = abs(Double(out.bytes[y * 96 + x]) - l)
          lumaError += e * e
          if e <= 0.5 + 1e-9 { near += 1 }
          if x % 2 == 0 && y % 2 == 0 {
            let q = renderer.sourcePosition(mapping.direction(Double(x), Double(y) + 0.5))
            let c = planes.siting.chroma(x: q.u, y: q.v)
            let cr = renderer.exactTap(
              planes.v, planes.vStride, planes.chromaWidth, planes.chromaHeight, c.x, c.y, deep: true)!
            let got = Double(out.bytes[out.chromaOffsets.v + (y / 2) * 48 + x / 2])
            chromaError += (got - cr) * (got - cr)
          }
        }
      }
      let lumaRMS = (lumaError / (96 * 64)).squareRoot(), chromaRMS = (chromaError / (48 * 32)).squareRoot()
      #expect(lumaRMS < 1, "luma RMS \(lumaRMS)")
      #expect(chromaRMS < 1, "chroma RMS \(chromaRMS)")
      // Most samples are rounded from the exact value (the rest sit on sharp edges).
      #expect(near > 96 * 64 * 8 / 10, "\(near) of \(96 * 64) within half a level")
    }
  }

  /// A grey ramp from black to white over 256 source pixels, two output pixels to each: 8-bit limited-range planes
  /// hold 220 luma levels, which the matrix's 255/219 stretch leaves gaps between in RGB;
  /// 10-bit planes reach (nearly) every RGB level and sit nearer the true ramp.
  @Test func rampKeepsItsLevels() {
    let width = 512, height = 256
    func ramp(_ u: Double) -> Double { 64 + min(max(u - 128, 0), 256) * 876 / 256 }  // 10-bit units
    let deep = Deep(width: width, height: height) { x, _ in (ramp(Double(x)), 512, 512) }
    var shallow = YUVImage(width: width, height: height)
    for y in 0..<height {
      for x in 0..<width { shallow.bytes[y * width + x] = UInt8((ramp(Double(x)) / 4).rounded()) }
    }
    // Longitude straight across: output x is linear in source u.
    let view = ViewAngles(yaw: 0, pitch: 0)
    var r10 = try! YUVRenderer(width: width, height: height, video: SphericalVideo(source: "t"))
    var r8 = r10
    var out10 = RGBAImage(width: 512, height: 16), out8 = out10
    let fov = Elementary.pi
    deep.withPlanes {
      try! r10.render(view: view, hfov: fov, lens: .equirectangular, from: $0, into: &out10, executor: InlineRows())
    }
    shallow.withPlanes {
      try! r8.render(view: view, hfov: fov, lens: .equirectangular, from: $0, into: &out8, executor: InlineRows())
    }
    let mapping = YUVRenderer.Mapping(
      width: 512, height: 16, view: view, hfov: fov, lens: .equirectangular, video: r10.video)
    var e10 = 0.0, e8 = 0.0
    var levels10 = Set<UInt8>(), levels8 = Set<UInt8>()
    for x in 0..<512 {
      let p = r10.sourcePosition(mapping.direction(Double(x), 8))
      let truth = min(max((ramp(p.u) / 4 - 16) * 255 / 219, 0), 255)
      let a = RGBAImage.unpack(out10[x, 8]).r, b = RGBAImage.unpack(out8[x, 8]).r
      e10 += abs(Double(a) - truth)
      e8 += abs(Double(b) - truth)
      levels10.insert(a)
      levels8.insert(b)
    }
    #expect(levels8.count <= 221, "\(levels8.count) levels from 8 bits")
    #expect(levels10.count >= 250, "\(levels10.count) levels from 10 bits, \(levels8.count) from 8")
    #expect(e10 < e8 * 0.8, "mean error 10-bit \(e10 / 512), 8-bit \(e8 / 512)")
  }
}

@Suite("BT.2020 colour")
struct BT2020Tests {
  /// BT.2020's red (Kr 0.2627, Kb 0.0593) in limited range: pure red back, where BT.709's
  /// weights (what an untagged or misread clip gets) tint it; the 10-bit fixed point agrees.
  @Test func redIsRedWithTheBT2020Matrix() {
    let kr = 0.2627, kb = 0.0593
    let y = 16 + 219 * kr, cb = 128 + 224 * (0 - kr) / (2 * (1 - kb)), cr = 128 + 224 * (1 - kr) / (2 * (1 - kr))
    let c = YUVColour(matrix: .bt2020)
    let rgb = c.rgb(y: y, u: cb, v: cr)
    #expect(abs(rgb.r - 255) < 0.01 && abs(rgb.g) < 0.01 && abs(rgb.b) < 0.01, "\(rgb)")
    let other = YUVColour(matrix: .bt709).rgb(y: y, u: cb, v: cr)
    #expect(abs(other.g) > 10 || abs(other.b) > 10, "BT.709 weights should differ: \(other)")
    // 10-bit samples × 2¹⁶ (as the renderer's taps give them), rounded once.
    func deep(_ x: Double) -> Int32 { Int32((4 * x).rounded()) << 16 }
    let p = RGBAImage.unpack(YUVColour.Fixed(c).deepPixel(deep(y), deep(cb), deep(cr)))
    #expect(p.r >= 254 && p.g <= 1 && p.b <= 1, "\(p)")
  }
}
