import CoreMath
import Dispatch
import Testing

@testable import Panorama

@Suite("Perspective renderer")
struct RendererTests {
  /// A black 2:1 equirectangular image with a white square centred on direction (lon, lat).
  static func marker(lonDegrees: Double, latDegrees: Double, width: Int = 1024) -> RGBAImage {
    var image = RGBAImage(width: width, height: width / 2, fill: RGBAImage.pack(r: 0, g: 0, b: 0))
    let cx = Int(((lonDegrees / 360 + 0.5) * Double(width)).rounded(.down))
    let cy = Int(((0.5 - latDegrees / 180) * Double(width / 2)).rounded(.down))
    for y in (cy - 3)...(cy + 3) {
      for x in (cx - 3)...(cx + 3) {
        image[(x + width) % width, min(max(y, 0), width / 2 - 1)] = RGBAImage.pack(r: 255, g: 255, b: 255)
      }
    }
    return image
  }

  /// Centroid of bright pixels, in pixel-centre coordinates.
  static func centroid(_ image: RGBAImage) -> (x: Double, y: Double)? {
    var sx = 0.0, sy = 0.0, n = 0.0
    for y in 0..<image.height {
      for x in 0..<image.width {
        let w = Double(RGBAImage.unpack(image[x, y]).r) / 255
        if w > 0.1 {
          sx += (Double(x) + 0.5) * w
          sy += (Double(y) + 0.5) * w
          n += w
        }
      }
    }
    return n > 0 ? (sx / n, sy / n) : nil
  }

  @Test(arguments: [(0.0, 0.0), (90, 0), (-135, 20), (179, -30), (45, 60)])
  func lookingAtADirectionPutsItInTheCentre(lon: Double, lat: Double) {
    var renderer = try! PanoramaRenderer(
      source: Self.marker(lonDegrees: lon, latDegrees: lat), geometry: PanoramaGeometry(width: 1024, height: 512))
    var out = RGBAImage(width: 320, height: 240)
    renderer.renderPerspective(
      view: ViewAngles(yaw: degrees(lon), pitch: degrees(lat)), hfov: degrees(60), into: &out, executor: InlineRows())
    let c = Self.centroid(out)!
    #expect(abs(c.x - 160) < 1 && abs(c.y - 120) < 1, "centroid \(c)")
  }

  @Test func stereographicDirectionsLandWhereTheMathsSays() {
    // θ from the view axis lands at r = 2f·tan(θ/2), f = (W/4) / tan(hfov/4): at hfov 180°
    // on 400 px, f = 100, so 50° right is 200·tan 25° right of the centre, 30° up 200·tan 15°
    // above it.
    func tan(_ x: Double) -> Double { Elementary.sin(x) / Elementary.cos(x) }
    for (lon, lat, x, y) in [
      (50.0, 0.0, 200 + 200 * tan(degrees(25)), 150.0), (0, 30, 200, 150 - 200 * tan(degrees(15))),
      (-120, 0, 200 - 200 * tan(degrees(60)), 150),
    ] {
      var renderer = try! PanoramaRenderer(
        source: Self.marker(lonDegrees: lon, latDegrees: lat), geometry: PanoramaGeometry(width: 1024, height: 512))
      var out = RGBAImage(width: 400, height: 300)
      let hfov = degrees(lon == -120 ? 300 : 180)
      renderer.renderPerspective(view: ViewAngles(), hfov: hfov, lens: .stereographic, into: &out, executor: InlineRows())
      let c = Self.centroid(out)!
      // At 300° f = 100 / tan 75°: 120° left lands 2f·tan 60° left.
      let expectedX = lon == -120 ? 200 - 200 / tan(degrees(75)) * tan(degrees(60)) : x
      #expect(abs(c.x - expectedX) < 1 && abs(c.y - y) < 1, "lon \(lon) lat \(lat): \(c)")
    }
  }

  @Test func fisheyeDirectionsLandInProportionToTheirAngle() {
    // Equidistant: θ from the axis lands at r = f·θ, f = W / hfov; at 180° on 400 px,
    // 60° right is 400/π · π/3 right of the centre, 45° up 100 px above it.
    for (lon, lat, x, y) in [(60.0, 0.0, 200 + 400.0 / 3, 150.0), (0, 45, 200, 50)] {
      var renderer = try! PanoramaRenderer(
        source: Self.marker(lonDegrees: lon, latDegrees: lat), geometry: PanoramaGeometry(width: 1024, height: 512))
      var out = RGBAImage(width: 400, height: 300)
      renderer.renderPerspective(
        view: ViewAngles(), hfov: degrees(180), lens: .fisheye, into: &out, executor: InlineRows())
      let c = Self.centroid(out)!
      #expect(abs(c.x - x) < 1 && abs(c.y - y) < 1, "lon \(lon) lat \(lat): \(c)")
    }
    // At 360° the circle of directions is as wide as the view: outside it, background.
    var renderer = try! PanoramaRenderer(
      source: try! SamplePanorama.make(width: 1024), geometry: PanoramaGeometry(width: 1024, height: 512))
    var out = RGBAImage(width: 400, height: 300)
    renderer.renderPerspective(
      view: ViewAngles(yaw: 1), hfov: degrees(360), lens: .fisheye, into: &out, executor: ConcurrentForTest())
    // Row 0 is 149.5 px above the centre: inside for |x + 0.5 − 200| ≤ √(200² − 149.5²) ≈ 132.9.
    #expect(out[0, 0] == renderer.background && out[66, 0] == renderer.background)
    #expect(out[68, 0] != renderer.background && out[331, 0] != renderer.background)
    #expect(out[334, 0] == renderer.background && out[399, 299] == renderer.background)
    #expect(out[0, 150] != renderer.background && out[200, 150] != renderer.background)
  }

  @Test func anEquirectangularViewIsThePanoramaTurned() {
    // At 360° over the source's own size and no turn, the view is the source again.
    let source = try! SamplePanorama.make(width: 1024)
    var renderer = try! PanoramaRenderer(source: source, geometry: PanoramaGeometry(width: 1024, height: 512))
    var out = RGBAImage(width: 1024, height: 512)
    renderer.renderPerspective(
      view: ViewAngles(), hfov: degrees(360), lens: .equirectangular, into: &out, executor: ConcurrentForTest())
    #expect(out.psnr(against: source) > 40, "\(out.psnr(against: source)) dB")
    // Turned right 20°, a mark on the horizon straight ahead moves 20° left; pitched down
    // 30° instead, it rises 30°. (2 px per degree.)
    var marked = try! PanoramaRenderer(
      source: Self.marker(lonDegrees: 0, latDegrees: 0), geometry: PanoramaGeometry(width: 1024, height: 512))
    var view = RGBAImage(width: 720, height: 360)
    for (yaw, pitch, x, y) in [(20.0, 0.0, 320.0, 180.0), (0, -30, 360, 120)] {
      marked.renderPerspective(
        view: ViewAngles(yaw: degrees(yaw), pitch: degrees(pitch)), hfov: degrees(360), lens: .equirectangular,
        into: &view, executor: InlineRows())
      let c = Self.centroid(view)!
      #expect(abs(c.x - x) < 1 && abs(c.y - y) < 1, "yaw \(yaw) pitch \(pitch): \(c)")
    }
  }

  @Test func aStereographicViewStraightDownIsALittlePlanet() {
    // Looking down with 300°: the ground is a disc around the nadir, the horizon a circle of
    // radius 2f (θ = 90°), and beyond it the sky, all round.
    var renderer = try! PanoramaRenderer(
      source: try! SamplePanorama.make(width: 1024), geometry: PanoramaGeometry(width: 1024, height: 512))
    var out = RGBAImage(width: 400, height: 400)
    renderer.renderPerspective(
      view: ViewAngles(pitch: degrees(-90)), hfov: degrees(300), lens: .stereographic, into: &out, executor: InlineRows())
    let f = 100 / (Elementary.sin(degrees(75)) / Elementary.cos(degrees(75)))
    func colour(_ radius: Double, _ angle: Double) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
      let (s, c) = Elementary.sinCos(degrees(angle))
      return RGBAImage.unpack(out[Int(200 + radius * c), Int(200 + radius * s)])
    }
    for angle in stride(from: 0.0, to: 360, by: 45) {
      let ground = colour(1.5 * f, angle), sky = colour(4 * f, angle)
      #expect(ground.g > ground.r && ground.g > ground.b, "ground at \(angle)°: \(ground)")
      #expect(sky.b > sky.r && sky.b > sky.g, "sky at \(angle)°: \(sky)")
    }
  }

  @Test func offCentreDirectionsLandWhereTheMathsSays() {
    // 20° right of the view on the horizon: x = cx + f·tan 20°, f = (W/2) / tan(hfov/2).
    var renderer = try! PanoramaRenderer(
      source: Self.marker(lonDegrees: 20, latDegrees: 0), geometry: PanoramaGeometry(width: 1024, height: 512))
    var out = RGBAImage(width: 400, height: 300)
    renderer.renderPerspective(view: ViewAngles(), hfov: degrees(90), into: &out, executor: InlineRows())
    let f = 200 / Elementary.sin(degrees(45)) * Elementary.cos(degrees(45))
    let c = Self.centroid(out)!
    #expect(abs(c.x - (200 + f * Elementary.sin(degrees(20)) / Elementary.cos(degrees(20)))) < 1, "\(c)")
    #expect(abs(c.y - 150) < 1)
    // Rolled 90° clockwise, the marker that was to the right is now above the centre.
    renderer.renderPerspective(view: ViewAngles(roll: degrees(90)), hfov: degrees(90), into: &out, executor: InlineRows())
    let r = Self.centroid(out)!
    #expect(abs(r.x - 200) < 1.5 && r.y < 150 - 60, "\(r)")
  }

  @Test func anyAnglesDrawWithoutTrapping() {
    // Found by fuzzing `pano video`: a yaw of 1e30 made source coordinates too large to
    // convert. Huge angles are taken modulo a turn; NaN and infinities count as 0.
    let source = try! SamplePanorama.make(width: 256)
    var renderer = try! PanoramaRenderer(source: source, geometry: PanoramaGeometry(width: 256, height: 128))
    var reference = RGBAImage(width: 40, height: 30), frame = reference
    let huge = 1e30
    renderer.renderPerspective(
      view: ViewAngles(yaw: huge.truncatingRemainder(dividingBy: Elementary.twoPi)), hfov: 1.2, into: &reference,
      executor: InlineRows())
    renderer.renderPerspective(view: ViewAngles(yaw: huge), hfov: 1.2, into: &frame, executor: InlineRows())
    #expect(frame == reference)
    for (view, hfov) in [
      (ViewAngles(yaw: .nan, pitch: .infinity, roll: -.infinity), 1.2), (ViewAngles(pitch: 1e300, roll: -1e300), 1.2),
      (ViewAngles(yaw: 1), Double.nan), (ViewAngles(yaw: -Double.greatestFiniteMagnitude), -.infinity),
    ] {
      renderer.renderPerspective(view: view, hfov: hfov, into: &frame, executor: InlineRows())
      for yaw in [view.yaw, view.pitch] {
        renderer.renderStrip(yaw: yaw, edges: .repeat, into: &frame, executor: InlineRows())
        renderer.renderStrip(yaw: yaw, edges: .clamp, into: &frame, executor: InlineRows())
      }
    }
  }

  @Test func degenerateGeometriesDrawWithoutTrapping() {
    // Found by fuzzing geometries built from raw doubles: a crop 1e179 px wide of a panorama
    // 1e-260 px wide makes the wrap period 0, and wrapping by it turned positions into NaN;
    // a "wrapping" geometry whose period is not the source's width read outside the source.
    let geometries = [
      PanoramaGeometry(
        projection: .equirectangular, fullWidth: 2.6e-260, fullHeight: 2.6e-260, croppedLeft: 2.6e-260,
        croppedTop: 2.6e-260, croppedWidth: 3.4e179, croppedHeight: 2.6e-260),
      PanoramaGeometry(
        projection: .cylindrical, fullWidth: .nan, fullHeight: 0, croppedLeft: -.infinity, croppedTop: 1,
        croppedWidth: 0, croppedHeight: -5),
      // Negative sizes that still say "wraps", with a period of 1.3 M px over a 64-px source:
      // the scalar path read outside the source (AddressSanitizer in fuzzing).
      PanoramaGeometry(
        projection: .cylindrical, fullWidth: -1.5373275925636158e173, fullHeight: -1.537e173, croppedLeft: -7.6e168,
        croppedTop: -1.537e173, croppedWidth: -7.6e168, croppedHeight: -1.537e173),
      // A "full sphere" by the first cap check, of negative height over a subnormal crop:
      // its face focal length was -infinity and sizing the face trapped (fuzzing).
      PanoramaGeometry(
        projection: .equirectangular, fullWidth: -1.565e-209, fullHeight: -1.565e-209, croppedLeft: -1.565e-209,
        croppedTop: -1.565e-209, croppedWidth: -1.565e-209, croppedHeight: Double("2.2e-309")!),
      // A full sphere whose crop claims to be far taller: tiny faces, still drawn.
      PanoramaGeometry(
        projection: .equirectangular, fullWidth: 64, fullHeight: 32, croppedLeft: 0, croppedTop: 0, croppedWidth: 64,
        croppedHeight: 1e300),
    ]
    for geometry in geometries {
      var renderer = try! PanoramaRenderer(source: try! SamplePanorama.make(width: 64), geometry: geometry)
      renderer.buildPolarCaps(executor: InlineRows())
      var frame = RGBAImage(width: 40, height: 20)
      renderer.renderPerspective(view: ViewAngles(yaw: 1e-300, pitch: 0.3), hfov: 1e-300, into: &frame, executor: InlineRows())
      renderer.renderPerspective(view: ViewAngles(yaw: 2), hfov: 1.5, into: &frame, executor: InlineRows())
      renderer.renderStrip(yaw: 0.5, edges: .repeat, into: &frame, executor: InlineRows())
      renderer.renderStrip(yaw: 0.5, edges: .clamp, into: &frame, executor: InlineRows())
    }
  }

  @Test func yawOnlyFramesMatchAFreshRenderAndThreadsMatchInline() {
    let source = try! SamplePanorama.make(width: 1024)
    var cached = try! PanoramaRenderer(source: source, geometry: PanoramaGeometry(width: 1024, height: 512))
    var scratch = RGBAImage(width: 300, height: 200)
    cached.renderPerspective(view: ViewAngles(yaw: 1, pitch: 0.2), hfov: 1.2, into: &scratch, executor: InlineRows())
    var a = RGBAImage(width: 300, height: 200)
    cached.renderPerspective(view: ViewAngles(yaw: 2.5, pitch: 0.2), hfov: 1.2, into: &a, executor: InlineRows())
    var fresh = try! PanoramaRenderer(source: source, geometry: PanoramaGeometry(width: 1024, height: 512))
    var b = RGBAImage(width: 300, height: 200)
    fresh.renderPerspective(view: ViewAngles(yaw: 2.5, pitch: 0.2), hfov: 1.2, into: &b, executor: ConcurrentForTest())
    #expect(a == b)
  }

  @Test func gridInterpolationStaysWithinAPixelOfTheExactMapping() {
    // Same view with the default blocks and 2 × 2 blocks (nearly exact): nearly the same image,
    // also with a pole in view (blocks there are cut into 8 × 8 pieces).
    let source = try! SamplePanorama.make(width: 2048)
    var coarse = try! PanoramaRenderer(source: source, geometry: PanoramaGeometry(width: 2048, height: 1024))
    var fine = coarse
    fine.gridSpacing = GridSpacing(columns: 2, rows: 2)
    for view in [ViewAngles(yaw: 0.3, pitch: 0.5, roll: 0.2), ViewAngles(yaw: -2, pitch: 1.4), ViewAngles(pitch: -1.55)] {
      var a = RGBAImage(width: 320, height: 200), b = a
      coarse.renderPerspective(view: view, hfov: 1.6, into: &a, executor: InlineRows())
      fine.renderPerspective(view: view, hfov: 1.6, into: &b, executor: InlineRows())
      #expect(a.psnr(against: b) > 35, "PSNR \(a.psnr(against: b))")
    }
  }

  /// The largest distance, in source pixels, between the interpolated mapping the render
  /// loop steps through and the exact mapping, over every pixel of blocks that interpolate.
  /// Horizontal distances count at their true size on the sphere (× cos latitude): near the
  /// poles an equirectangular row repeats the same few directions over many pixels.
  static func worstInterpolationError(
    sourceWidth: Int, spacing: GridSpacing, view: ViewAngles, hfov: Double, width: Int = 1920, height: Int = 1080
  ) -> (error: Double, exactBlocks: Int) {
    // The mapping depends on the source's size only, so a 1-pixel-high source with the
    // panorama's geometry scaled stands in for the full image.
    var renderer = try! PanoramaRenderer(
      source: RGBAImage(width: sourceWidth, height: sourceWidth / 2),
      geometry: PanoramaGeometry(width: sourceWidth, height: sourceWidth / 2))
    renderer.gridSpacing = spacing
    renderer.prepareGrid(width: width, height: height, view: view, hfov: hfov, executor: InlineRows())
    let camera = PanoramaRenderer.Camera(width: width, height: height, pitch: view.pitch, roll: view.roll, hfov: hfov)
    let context = PanoramaRenderer.BlockContext(renderer: renderer, shift: 0, camera: camera, width: width)
    var worst = 0.0, exactBlocks = 0
    let period = Double(sourceWidth)
    for band in 0..<max(renderer.rows.count - 1, 1) {
      for column in 0..<max(renderer.columns.count - 1, 1) {
        let block = context.block(band: band, column: column)
        guard let patch = block.patch else {
          exactBlocks += 1
          continue
        }
        for y in block.ys {
          for x in block.xs {
            let exact = renderer.sourcePosition(camera.direction(Double(x), Double(y)))
            let row = y - block.ys.lowerBound, column = x - block.xs.lowerBound
            let grouped = patch.inside && column < block.xs.count & ~3
            var du = Double(patch.u.value(column: column, row: row, grouped: grouped)) / 65536 - exact.u
            du -= (du / period).rounded() * period
            let dv = Double(patch.v.value(column: column, row: row, grouped: grouped)) / 65536 - exact.v
            let latitude = (0.5 - (exact.v + 0.5) / Double(sourceWidth / 2)) * Elementary.pi
            worst = max(worst, max(abs(du) * Elementary.cos(latitude), abs(dv)))
          }
        }
      }
    }
    return (worst, exactBlocks)
  }

  @Test func interpolatedMappingStaysCloseToTheExactOne() {
    // An 8192-wide panorama seen at 1920×1080, as the benchmark, with the default grid.
    // Measured: 0.008 px at the benchmark's view, 0.05 at pitch 45°, 0.3 at hfov 150°, 0.56
    // next to the pole (bilinear 16 × 16 blocks, the former default, were 2–3× further off).
    let cases: [(pitch: Double, hfov: Double, bound: Double)] = [
      (0, 90, 0.01), (10, 90, 0.01), (45, 90, 0.1), (60, 60, 0.05), (80, 90, 0.7), (0, 120, 0.05), (30, 120, 0.2),
      (0, 150, 0.4),
    ]
    for (pitch, hfov, bound) in cases {
      let result = Self.worstInterpolationError(
        sourceWidth: 8192, spacing: PanoramaRenderer.defaultGridSpacing, view: ViewAngles(pitch: degrees(pitch)),
        hfov: degrees(hfov))
      #expect(result.error < bound, "pitch \(pitch)°, hfov \(hfov)°: \(result.error) px")
    }
  }

  @Test func cylindricalSourcesMapLatitudeThroughTheTangent() {
    // A 360° cylinder 1024 wide (radius 1024/2π) and 400 high, with a marker 20° up at 45°.
    let width = 1024, height = 400
    let radius = Double(width) / Elementary.twoPi
    var source = RGBAImage(width: width, height: height, fill: RGBAImage.pack(r: 0, g: 0, b: 0))
    let cx = Int((45.0 / 360 + 0.5) * Double(width))
    let cy = Int(Double(height) / 2 - Elementary.sin(degrees(20)) / Elementary.cos(degrees(20)) * radius)
    for y in (cy - 3)...(cy + 3) { for x in (cx - 3)...(cx + 3) { source[x, y] = RGBAImage.pack(r: 255, g: 255, b: 255) } }
    let geometry = PanoramaGeometry(projection: .cylindrical, width: width, height: height)
    #expect(geometry.wraps)
    var renderer = try! PanoramaRenderer(source: source, geometry: geometry)
    var out = RGBAImage(width: 200, height: 200)
    renderer.renderPerspective(
      view: ViewAngles(yaw: degrees(45), pitch: degrees(20)), hfov: degrees(40), into: &out, executor: InlineRows())
    let c = Self.centroid(out)!
    #expect(abs(c.x - 100) < 1.5 && abs(c.y - 100) < 1.5, "\(c)")
  }

  @Test func partialPanoramasShowBackgroundOutside() {
    // A 90°-wide crop: looking behind shows only background.
    let crop = PanoramaGeometry(
      projection: .equirectangular, fullWidth: 4096, fullHeight: 2048, croppedLeft: 1536, croppedTop: 512, croppedWidth: 1024,
      croppedHeight: 1024)
    #expect(close(crop.horizontalFOV, degrees(90)))
    #expect(close(crop.verticalFOV, degrees(90)))
    var renderer = try! PanoramaRenderer(
      source: RGBAImage(width: 1024, height: 1024, fill: RGBAImage.pack(r: 200, g: 0, b: 0)), geometry: crop)
    var out = RGBAImage(width: 64, height: 64)
    renderer.renderPerspective(view: ViewAngles(yaw: degrees(180)), hfov: degrees(60), into: &out, executor: InlineRows())
    #expect(out.pixels.allSatisfy { $0 == renderer.background })
    renderer.renderPerspective(view: ViewAngles(), hfov: degrees(60), into: &out, executor: InlineRows())
    #expect(out.pixels.allSatisfy { RGBAImage.unpack($0).r == 200 })
  }
}

@Suite("Strip camera (seed 003)")
struct StripTests {
  @Test func seedArithmetic() {
    // A 4000×1000 photo in a 300×500 view: fitted width 4000·500/1000 = 2000.
    let strip = StripCamera(imageWidth: 4000, imageHeight: 1000, viewWidth: 300, viewHeight: 500, fieldOfView: degrees(360))
    #expect(strip.stripWidth == 2000)
    #expect(close(strip.offset(yaw: degrees(90), edges: .repeat), 500))
    #expect(close(strip.offset(yaw: degrees(-720), edges: .repeat), -4000))
    // A 180° photo: the seed's `360 / angle` factor doubles the move.
    let half = StripCamera(imageWidth: 4000, imageHeight: 1000, viewWidth: 300, viewHeight: 500, fieldOfView: degrees(180))
    #expect(close(half.offset(yaw: degrees(45), edges: .repeat), 500))
    // Clamped, the window stays inside the image: at most (2000 − 300) / 2.
    #expect(close(half.offset(yaw: degrees(170), edges: .clamp), 850))
  }

  @Test func wrapsWithNoBlankEdge() {
    let source = try! SamplePanorama.make(width: 512)
    let renderer = try! PanoramaRenderer(source: source, geometry: PanoramaGeometry(width: 512, height: 256))
    var out = RGBAImage(width: 400, height: 100)
    for yaw in stride(from: -20.0, to: 20, by: 0.37) {
      renderer.renderStrip(yaw: yaw, into: &out, executor: InlineRows())
      #expect(!out.pixels.contains(renderer.background), "blank edge at yaw \(yaw)")
    }
    // A full turn later the view is the same.
    var a = out, b = out
    renderer.renderStrip(yaw: 0.5, into: &a, executor: InlineRows())
    renderer.renderStrip(yaw: 0.5 + Elementary.twoPi, into: &b, executor: InlineRows())
    #expect(a.psnr(against: b) > 45)
  }
}

/// Runs bands on several threads, as the hosts do.
struct ConcurrentForTest: RowExecutor {
  func run(_ count: Int, _ body: @Sendable (Int) -> Void) {
    DispatchQueue.concurrentPerform(iterations: count) { body($0) }
  }
}

@Suite("Lenses and pinned frames")
struct LensAndFrameTests {
  @Test(arguments: Lens.allCases)
  func eachLensProjectsBothWaysConsistently(lens: Lens) {
    for angle in stride(from: 0.05, to: min(lens.maximumFieldOfView / 2, 3.1), by: 0.1) {
      #expect(abs(lens.angle(atRadius: lens.radius(atAngle: angle)) - angle) < 1e-12, "\(lens) \(angle)")
      // The focal length puts half the field at half the width.
      let f = lens.focalLength(halfWidth: 100, fieldOfView: 2 * angle)
      #expect(abs(100 / f - lens.radius(atAngle: angle)) < 1e-9, "\(lens) \(angle)")
      // The ray through a point on the x axis leaves the axis at that angle.
      if lens != .equirectangular {
        let r = lens.ray(x: lens.radius(atAngle: angle), y: 0)
        #expect(abs(Elementary.atan2(r.x, r.z) - angle) < 1e-9, "\(lens) \(angle)")
      }
    }
    #expect((lens.visibleRadius != nil) == (lens == .fisheye))
  }

  /// FNV-1a over a frame's pixels.
  static func hash(_ image: RGBAImage) -> UInt64 {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for p in image.pixels {
      h = (h ^ UInt64(p)) &* 0x100_0000_01b3
    }
    return h
  }

  /// Frames pinned byte for byte: a refactoring of the renderer must leave every one as it
  /// is; a change meant to alter frames updates these numbers and says why.
  @Test func framesAreUnchangedByteForByte() {
    var renderer = try! PanoramaRenderer(
      source: try! SamplePanorama.make(width: 1024), geometry: PanoramaGeometry(width: 1024, height: 512))
    renderer.buildsMipLevelsWhenMinified = false  // the plain frames first; "mip levels" below
    let views: [(String, ViewAngles, Double, Lens)] = [
      ("level", ViewAngles(yaw: degrees(30), pitch: degrees(10)), 90, .rectilinear),
      ("pole", ViewAngles(pitch: degrees(80)), 100, .rectilinear),
      ("planet", ViewAngles(pitch: degrees(-90)), 300, .stereographic),
      ("fisheye", ViewAngles(pitch: degrees(20)), 360, .fisheye),
      ("equirectangular", ViewAngles(roll: degrees(10)), 360, .equirectangular),
    ]
    var hashes: [String: UInt64] = [:]
    var frame = RGBAImage(width: 320, height: 180)
    for (name, view, hfov, lens) in views {
      renderer.renderPerspective(view: view, hfov: degrees(hfov), lens: lens, into: &frame, executor: InlineRows())
      hashes[name] = Self.hash(frame)
    }
    renderer.renderStrip(yaw: degrees(40), into: &frame, executor: InlineRows())
    hashes["strip"] = Self.hash(frame)
    renderer.buildMipLevels(executor: InlineRows())
    renderer.renderPerspective(
      view: ViewAngles(pitch: degrees(-60)), hfov: degrees(120), into: &frame, executor: InlineRows())
    hashes["mip levels"] = Self.hash(frame)
    renderer.buildPolarCaps(executor: InlineRows())
    renderer.renderPerspective(
      view: ViewAngles(yaw: 0.7, pitch: degrees(80)), hfov: degrees(100), into: &frame, executor: InlineRows())
    hashes["pole, caps"] = Self.hash(frame)
    renderer.renderPerspective(
      view: ViewAngles(pitch: degrees(-90)), hfov: degrees(300), lens: .stereographic, into: &frame, executor: InlineRows())
    hashes["planet, caps"] = Self.hash(frame)
    #expect(hashes == Self.pinned, "\(hashes.sorted { $0.key < $1.key }.map { "\($0.key)=\(String($0.value, radix: 16))" })")
  }

  /// Taken from the renderer before it was split into files and its lenses gathered into
  /// `Lens` (the same numbers came out of both); the two with caps when the caps came
  /// (frames without them kept their numbers).
  static let pinned: [String: UInt64] = [
    "equirectangular": 0xbcd7_99e4_4c06_ff1f, "fisheye": 0x201e_ce62_99f8_2d17, "level": 0xcf88_4690_607d_f6ac,
    "mip levels": 0x38e3_3675_d3af_fb37, "planet": 0x4a76_7cc5_0fd4_b929, "pole": 0xec02_998e_64c6_1275,
    "strip": 0x981f_2b2f_0150_6ac7, "pole, caps": 0x75b7_777c_329f_9338, "planet, caps": 0x9ed6_50cd_66bf_befb,
  ]
}
