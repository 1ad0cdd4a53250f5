import CoreMath
import Testing

@testable import Panorama

@Suite("Mip levels")
struct MipLevelTests {
  static let black = RGBAImage.pack(r: 0, g: 0, b: 0)
  static let white = RGBAImage.pack(r: 255, g: 255, b: 255)

  /// One-pixel black and white columns: the worst case for a view that skips pixels.
  static func stripes(width: Int) -> RGBAImage {
    var image = RGBAImage(width: width, height: width / 2)
    for y in 0..<image.height {
      for x in 0..<width { image[x, y] = x % 2 == 0 ? black : white }
    }
    return image
  }

  /// Mean and standard deviation of the red channel.
  static func spread(_ image: RGBAImage) -> (mean: Double, deviation: Double) {
    let values = image.pixels.map { Double(RGBAImage.unpack($0).r) }
    let mean = values.reduce(0, +) / Double(values.count)
    let variance = values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count)
    return (mean, variance.squareRoot())
  }

  @Test func eachLevelIsTheRoundedMeanOfTwoByTwoBlocks() {
    var source = RGBAImage(width: 12, height: 8)
    for y in 0..<8 {
      for x in 0..<12 {
        source[x, y] = RGBAImage.pack(
          r: UInt8(x * 20 + y), g: UInt8(255 - x * 7), b: UInt8((x * y * 13) % 256), a: UInt8(200 + x + y))
      }
    }
    let mips = MipLevels(source: source, minimumSide: 1, executor: InlineRows())
    // 12×8 → 6×4 → 3×2, then an odd side stops it.
    #expect(mips.levels.map { [$0.width, $0.height] } == [[6, 4], [3, 2]])
    #expect(mips.byteCount == (24 + 6) * 4)
    for k in 1...2 {
      let above = k == 1 ? source : mips.image(k - 1)
      let level = mips.image(k)
      for y in 0..<level.height {
        for x in 0..<level.width {
          let block = [above[2 * x, 2 * y], above[2 * x + 1, 2 * y], above[2 * x, 2 * y + 1], above[2 * x + 1, 2 * y + 1]]
            .map(RGBAImage.unpack)
          func mean(_ channel: KeyPath<(r: UInt8, g: UInt8, b: UInt8, a: UInt8), UInt8>) -> UInt8 {
            UInt8((block.map { Int($0[keyPath: channel]) }.reduce(0, +) + 2) / 4)
          }
          #expect(level[x, y] == RGBAImage.pack(r: mean(\.r), g: mean(\.g), b: mean(\.b), a: mean(\.a)))
        }
      }
    }
    #expect(MipLevels(source: source, executor: InlineRows()).levels.isEmpty)  // sides below 16
  }

  @Test func wideViewsOfFineDetailAverageInsteadOfAliasing() {
    // 1024 px per turn seen at 120° over 64 px: about 5 source pixels per output pixel.
    var renderer = try! PanoramaRenderer(source: Self.stripes(width: 1024), geometry: PanoramaGeometry(width: 1024, height: 512))
    renderer.buildsMipLevelsWhenMinified = false
    var frame = RGBAImage(width: 64, height: 36)
    let view = ViewAngles(yaw: 0.3, pitch: 0.1)
    renderer.renderPerspective(view: view, hfov: Angle(degrees: 120).radians, into: &frame, executor: InlineRows())
    let aliased = Self.spread(frame)
    renderer.buildMipLevels(executor: InlineRows())
    renderer.renderPerspective(view: view, hfov: Angle(degrees: 120).radians, into: &frame, executor: InlineRows())
    let averaged = Self.spread(frame)
    #expect(aliased.deviation > 40, "without levels the stripes alias: \(aliased)")
    #expect(abs(averaged.mean - 127.5) < 2 && averaged.deviation < 3, "with levels they average to grey: \(averaged)")

    // The seed's strip camera, fitted to a view 8× lower than the image.
    var strip = RGBAImage(width: 96, height: 64)
    renderer.renderStrip(yaw: 0.2, into: &strip, executor: InlineRows())
    let stripSpread = Self.spread(strip)
    #expect(abs(stripSpread.mean - 127.5) < 2 && stripSpread.deviation < 3, "\(stripSpread)")
  }

  @Test func aLevelFadesInOverTheLastQuarterOctaveBeforeItTakesOver() {
    // A 64 × 36 view of 1-px stripes (4096 px per turn; about 12° wide, so every block steps
    // nearly alike) steps `step` source pixels per output pixel. Below 2^0.75 ≈ 1.68 blocks
    // read the source alone; from there to 2 level 1 fades in; at 2 it takes over. So
    // zooming out never jumps.
    let stripes = Self.stripes(width: 4096)
    var plain = try! PanoramaRenderer(source: stripes, geometry: PanoramaGeometry(width: 4096, height: 2048))
    plain.buildsMipLevelsWhenMinified = false
    var withLevels = plain
    withLevels.buildMipLevels(executor: InlineRows())
    func render(_ renderer: inout PanoramaRenderer, step: Double) -> RGBAImage {
      let pixelsPerRadian = 4096 / Elementary.twoPi
      let half = 32 * step / pixelsPerRadian  // tan(hfov / 2) for that step at the centre
      var frame = RGBAImage(width: 64, height: 36)
      renderer.renderPerspective(
        view: ViewAngles(yaw: 0.3), hfov: 2 * Elementary.atan(half), into: &frame, executor: InlineRows())
      return frame
    }
    #expect(render(&withLevels, step: 1.5) == render(&plain, step: 1.5))
    let aliased = Self.spread(render(&plain, step: 1.97)).deviation
    #expect(aliased > 40, "\(aliased)")
    // Zooming out through the switch: the stripes fade to grey step by step, never in one go.
    let steps = [1.7, 1.8, 1.9, 1.97, 2.03, 2.1]
    let spreads = steps.map { Self.spread(render(&withLevels, step: $0)).deviation }
    for (a, b) in zip(spreads, spreads.dropFirst()) {
      #expect(b < a + 1 && a - b < 30, "fading: \(spreads)")
    }
    #expect(spreads[0] > 40 && spreads[3] < 10 && spreads[4] < 3, "\(spreads)")
  }

  @Test func viewsThatDoNotSkipPixelsAreUnchanged() {
    // 2048 px per turn, 90° over 480 px: 1.07 source pixels per output pixel, level 0.
    let source = RendererTests.marker(lonDegrees: 10, latDegrees: 5, width: 2048)
    var plain = try! PanoramaRenderer(source: source, geometry: PanoramaGeometry(width: 2048, height: 1024))
    plain.buildsMipLevelsWhenMinified = false
    var withLevels = plain
    withLevels.buildMipLevels(executor: InlineRows())
    #expect(withLevels.mipLevels.levels.count == 6)  // 1024×512 … 32×16
    var a = RGBAImage(width: 480, height: 270), b = a
    for view in [ViewAngles(yaw: 0.2, pitch: 0.1), ViewAngles(yaw: -2, pitch: -0.3, roll: 0.2)] {
      plain.renderPerspective(view: view, hfov: Elementary.halfPi, into: &a, executor: InlineRows())
      withLevels.renderPerspective(view: view, hfov: Elementary.halfPi, into: &b, executor: InlineRows())
      #expect(a == b)
    }
  }

  /// Issue 39: a renderer builds its levels the first time a view minifies, and draws what
  /// one given them up front draws; a view that does not minify builds none and draws
  /// what a renderer without them draws.
  @Test func levelsAreBuiltByTheFirstViewThatMinifies() {
    let source = RendererTests.marker(lonDegrees: 10, latDegrees: 5, width: 2048)
    var plain = try! PanoramaRenderer(source: source, geometry: PanoramaGeometry(width: 2048, height: 1024))
    plain.buildsMipLevelsWhenMinified = false
    var asked = plain
    asked.buildMipLevels(executor: InlineRows())
    var lazy = try! PanoramaRenderer(source: source, geometry: PanoramaGeometry(width: 2048, height: 1024))
    var a = RGBAImage(width: 480, height: 270), b = a
    // 90° over 480 px: 1.07 source pixels a pixel, and 20°: magnified.
    for hfov in [90.0, 20] {
      lazy.renderPerspective(
        view: ViewAngles(yaw: 0.2, pitch: 0.1), hfov: Angle(degrees: hfov).radians, into: &a, executor: InlineRows())
      plain.renderPerspective(
        view: ViewAngles(yaw: 0.2, pitch: 0.1), hfov: Angle(degrees: hfov).radians, into: &b, executor: InlineRows())
      #expect(a == b && lazy.mipLevels.levels.isEmpty, "hfov \(hfov)")
    }
    // 150°, or 90° looking far down: several source pixels a pixel somewhere.
    for (pitch, hfov) in [(0.0, 150.0), (-80, 90)] {
      let view = ViewAngles(yaw: -1, pitch: Angle(degrees: pitch).radians)
      lazy.renderPerspective(view: view, hfov: Angle(degrees: hfov).radians, into: &a, executor: InlineRows())
      asked.renderPerspective(view: view, hfov: Angle(degrees: hfov).radians, into: &b, executor: InlineRows())
      #expect(a == b && lazy.mipLevels.levels.count == 6, "pitch \(pitch), hfov \(hfov)")
    }
  }

  @Test func polesAndOddViewsWithLevelsMatchTheSourceClosely() {
    // Towards a pole the levels blur what the source aliases, but the picture is the same:
    // a smooth source gives nearly the same frame either way, with no seams between blocks.
    let source = try! SamplePanorama.make(width: 2048)
    var plain = try! PanoramaRenderer(source: source, geometry: PanoramaGeometry(width: 2048, height: 1024))
    plain.buildsMipLevelsWhenMinified = false
    var withLevels = plain
    withLevels.buildMipLevels(executor: InlineRows())
    var a = RGBAImage(width: 320, height: 180), b = a
    for (pitch, hfov) in [(80.0, 100.0), (-89.0, 150.0), (45, 170)] {
      let view = ViewAngles(yaw: 1, pitch: Angle(degrees: pitch).radians)
      plain.renderPerspective(view: view, hfov: Angle(degrees: hfov).radians, into: &a, executor: InlineRows())
      withLevels.renderPerspective(view: view, hfov: Angle(degrees: hfov).radians, into: &b, executor: InlineRows())
      var squared = 0.0
      for (p, q) in zip(a.pixels, b.pixels) {
        let (x, y) = (RGBAImage.unpack(p), RGBAImage.unpack(q))
        for (s, t) in [(x.r, y.r), (x.g, y.g), (x.b, y.b)] { squared += (Double(s) - Double(t)) * (Double(s) - Double(t)) }
      }
      let psnr = 10 * Elementary.log(255 * 255 / (squared / Double(3 * a.pixels.count))) / Elementary.log(10)
      #expect(psnr > 25, "pitch \(pitch), hfov \(hfov): \(psnr) dB")
    }
  }
}
