import CoreMath
import Testing

@testable import Panorama

@Suite("Polar caps")
struct PolarCapTests {
  /// The exact view: every pixel's direction in doubles, then a bilinear sample of the source
  /// in doubles (x wraps, y clamps at the poles), rounded once. What the renderer approximates.
  static func exactView(
    _ source: RGBAImage, view: ViewAngles, hfov: Double, lens: Lens = .rectilinear, width: Int, height: Int
  ) -> RGBAImage {
    let renderer = try! PanoramaRenderer(
      source: source, geometry: PanoramaGeometry(width: source.width, height: source.height))
    let camera = PanoramaRenderer.Camera(
      width: width, height: height, pitch: view.pitch, roll: view.roll, hfov: hfov, lens: lens)
    let w = source.width
    var out = RGBAImage(width: width, height: height)
    for y in 0..<height {
      for x in 0..<width {
        let p = renderer.sourcePosition(camera.direction(Double(x), Double(y)))
        out[x, y] = bilinear(source, u: p.u + view.yaw / Elementary.twoPi * Double(w), v: p.v, wraps: true)
      }
    }
    return out
  }

  /// `source` at (`u`, `v`) (pixel centres at integers), bilinear in doubles, rounded once:
  /// x wraps (or clamps), y clamps.
  static func bilinear(_ source: RGBAImage, u: Double, v: Double, wraps: Bool) -> UInt32 {
    let w = source.width, h = source.height
    let u = wraps ? u : min(max(u, 0), Double(w) - 1e-9), v = min(max(v, 0), Double(h - 1))
    let x0 = u.rounded(.down), y0 = v.rounded(.down)
    let fx = u - x0, fy = v - y0
    let xa = ((Int(x0) % w) + w) % w, xb = wraps ? (xa + 1) % w : min(xa + 1, w - 1)
    let ya = Int(y0), yb = min(ya + 1, h - 1)
    let corners = [source[xa, ya], source[xb, ya], source[xa, yb], source[xb, yb]]
    func channel(_ shift: UInt32) -> UInt8 {
      let c = corners.map { Double(($0 >> shift) & 255) }
      let top = c[0] * (1 - fx) + c[1] * fx, bottom = c[2] * (1 - fx) + c[3] * fx
      return UInt8((top * (1 - fy) + bottom * fy).rounded())
    }
    return RGBAImage.pack(r: channel(0), g: channel(8), b: channel(16))
  }

  /// A picture with detail everywhere on the sphere and equally fine in every direction, as a
  /// photograph's: waves over the 3-D direction, the finest 6 source pixels long at the
  /// equator. (An equirectangular drawing such as the sample's ground grid puts detail finer
  /// than a source row around a pole, which no camera records.)
  static func isotropicTexture(width: Int) -> RGBAImage {
    let height = width / 2
    var image = RGBAImage(width: width, height: height)
    let finest = Elementary.twoPi / (6 * Elementary.twoPi / Double(width))  // radians⁻¹
    let waves: [(Double, Double, Double, Double)] = [
      (0.31, 0.83, -0.46, 1), (-0.72, 0.12, 0.68, 0.6), (0.55, -0.61, 0.57, 0.35), (0.05, 0.99, 0.1, 0.2),
    ]
    for y in 0..<height {
      let lat = (0.5 - (Double(y) + 0.5) / Double(height)) * Elementary.pi
      let (sinLat, cosLat) = Elementary.sinCos(lat)
      for x in 0..<width {
        let lon = ((Double(x) + 0.5) / Double(width) - 0.5) * Elementary.twoPi
        let (sinLon, cosLon) = Elementary.sinCos(lon)
        let d = (cosLat * sinLon, sinLat, cosLat * cosLon)
        var channels = [0.0, 0.0, 0.0]
        for (k, (wx, wy, wz, scale)) in waves.enumerated() {
          let phase = (wx * d.0 + wy * d.1 + wz * d.2) * finest * scale
          channels[k % 3] += Elementary.sin(phase + Double(k))
          channels[(k + 1) % 3] += 0.5 * Elementary.cos(phase * 0.5)
        }
        func byte(_ v: Double) -> UInt8 { UInt8(min(max(128 + 50 * v, 0), 255)) }
        image[x, y] = RGBAImage.pack(r: byte(channels[0]), g: byte(channels[1]), b: byte(channels[2]))
      }
    }
    return image
  }

  /// The largest difference of any channel of any pixel: a seam where blocks switch between
  /// a face and the source would show here before it moved the PSNR.
  static func worstChannelError(_ a: RGBAImage, _ b: RGBAImage) -> Int {
    var worst = 0
    for (p, q) in zip(a.pixels, b.pixels) {
      for shift in [0, 8, 16] as [UInt32] {
        worst = max(worst, abs(Int((p >> shift) & 255) - Int((q >> shift) & 255)))
      }
    }
    return worst
  }

  static let views: [(ViewAngles, Double, Lens)] = [
    (ViewAngles(yaw: 0.4, pitch: degrees(80)), 90, .rectilinear),
    (ViewAngles(yaw: -2.2, pitch: degrees(90)), 90, .rectilinear),
    (ViewAngles(yaw: 1.3, pitch: degrees(60), roll: 0.3), 100, .rectilinear),
    (ViewAngles(yaw: 2.9, pitch: degrees(-75)), 70, .rectilinear),
    (ViewAngles(yaw: 0.5, pitch: degrees(-90)), 300, .stereographic),
  ]

  /// Measured (2048-wide texture, 480 × 270): the source 42.1–43.1 dB from the exact view,
  /// the faces 44.2–45.8 (the faces are sampled once, in doubles where it matters most,
  /// instead of stepping through the source's stretched rows); the little planet 30.2 either
  /// way (without mip levels it skips most texels of both).
  @Test func capsKeepViewsAtLeastAsCloseToTheExactOne() {
    let source = Self.isotropicTexture(width: 2048)
    let plain = try! PanoramaRenderer(source: source, geometry: PanoramaGeometry(width: 2048, height: 1024))
    var capped = plain
    capped.buildPolarCaps(executor: InlineRows())
    #expect(capped.polarCaps?.side == 560)
    for (view, hfov, lens) in Self.views {
      let exact = Self.exactView(source, view: view, hfov: degrees(hfov), lens: lens, width: 480, height: 270)
      var a = RGBAImage(width: 480, height: 270), b = a
      var plain = plain
      plain.renderPerspective(view: view, hfov: degrees(hfov), lens: lens, into: &a, executor: InlineRows())
      capped.renderPerspective(view: view, hfov: degrees(hfov), lens: lens, into: &b, executor: InlineRows())
      let before = a.psnr(against: exact), after = b.psnr(against: exact)
      #expect(after >= before - 0.5, "pitch \(view.pitch): \(before) dB from the source, \(after) from the faces")
      // No pixel further off than the source's worst (measured 10–14 levels with faces,
      // 18–23 without; 132 both ways for the aliasing little planet).
      let worst = (Self.worstChannelError(a, exact), Self.worstChannelError(b, exact))
      #expect(worst.1 <= worst.0, "pitch \(view.pitch): worst channel error \(worst.1) with faces, \(worst.0) without")
      if lens == .rectilinear { #expect(after > 44, "pitch \(view.pitch): \(after) dB") }
    }
  }

  @Test func turningWithCapsMatchesAFreshRenderAndThreadsMatchInline() {
    let source = Self.isotropicTexture(width: 1024)
    var turning = try! PanoramaRenderer(source: source, geometry: PanoramaGeometry(width: 1024, height: 512))
    turning.buildPolarCaps(executor: InlineRows())
    turning.buildMipLevels(executor: InlineRows())
    var fresh = turning
    var frame = RGBAImage(width: 320, height: 200), expected = frame
    for yaw in [0.0, 0.7, -2.9, 3.1] {
      turning.renderPerspective(view: ViewAngles(yaw: yaw, pitch: 1.2), hfov: 1.4, into: &frame, executor: InlineRows())
      fresh = try! PanoramaRenderer(source: source, geometry: PanoramaGeometry(width: 1024, height: 512))
      fresh.buildPolarCaps(executor: ConcurrentForTest())
      fresh.buildMipLevels(executor: InlineRows())
      fresh.renderPerspective(
        view: ViewAngles(yaw: yaw, pitch: 1.2), hfov: 1.4, into: &expected, executor: ConcurrentForTest())
      #expect(frame == expected, "yaw \(yaw)")
    }
  }

  @Test func facesHoldThePolesAtTheirCentres() {
    // The rows round each pole painted white (an equirectangular image spreads a pole over
    // its whole first or last row): the middle of each face, and nowhere else.
    for lat in [90.0, -90.0] {
      var source = RGBAImage(width: 512, height: 256, fill: RGBAImage.pack(r: 0, g: 0, b: 0))
      for y in (lat > 0 ? 0..<3 : 253..<256) {
        for x in 0..<512 { source[x, y] = RGBAImage.pack(r: 255, g: 255, b: 255) }
      }
      var renderer = try! PanoramaRenderer(source: source, geometry: PanoramaGeometry(width: 512, height: 256))
      renderer.buildPolarCaps(executor: InlineRows())
      guard let caps = renderer.polarCaps else {
        Issue.record("no caps for a full sphere")
        return
      }
      let face = caps.image(side: lat > 0 ? 1 : 2)
      let c = (caps.side - 1) / 2
      #expect(RGBAImage.unpack(face[c, c]).r > 200)
      #expect(RGBAImage.unpack(face[c + 40, c]).r < 50)
      #expect(caps.byteCount == caps.levels.reduce(0) { $0 + $1.width * $1.height } * 8)
    }
  }

  @Test func onlyFullSpheresHaveCaps() {
    let image = RGBAImage(width: 400, height: 100)
    var band = try! PanoramaRenderer(source: image, geometry: PanoramaGeometry(width: 400, height: 100))
    band.buildPolarCaps(executor: InlineRows())
    #expect(band.polarCaps == nil)
    var cylinder = try! PanoramaRenderer(
      source: image, geometry: PanoramaGeometry(projection: .cylindrical, width: 400, height: 100))
    cylinder.buildPolarCaps(executor: InlineRows())
    #expect(cylinder.polarCaps == nil)
  }
}
