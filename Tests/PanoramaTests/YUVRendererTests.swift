import CoreMath
import Testing

@testable import Panorama

@Suite("YUV renderer (decoder planes)")
struct YUVRendererTests {
  static let degree = Elementary.pi / 180
  /// The sample panorama in 4:2:0, BT.709 limited range: what a decoder hands over.
  static let source = YUVImage(try! SamplePanorama.make(width: 512))

  static func render(
    _ video: SphericalVideo = SphericalVideo(source: "test"), view: ViewAngles, hfov: Double, lens: Lens = .rectilinear,
    width: Int = 160, height: Int = 90
  ) -> (fast: RGBAImage, exact: RGBAImage) {
    var renderer = try! YUVRenderer(width: source.width, height: source.height, video: video)
    var fast = RGBAImage(width: width, height: height)
    return source.withPlanes { planes in
      try! renderer.render(view: view, hfov: hfov, lens: lens, from: planes, into: &fast, executor: InlineRows())
      return (fast, renderer.renderExact(view: view, hfov: hfov, lens: lens, from: planes, width: width, height: height))
    }
  }

  /// Against the float64 view of the same planes: 40 dB is about one level of error per
  /// pixel on average; the sample's sharp edges (text, grid lines) are where the two part,
  /// by the fixed-point position (1/256 px) rounding a tap across an edge.
  @Test(
    "RGBA output matches the exact float64 view",
    arguments: [
      (0.0, 0.0, 0.0, 90.0, Lens.rectilinear), (40, 30, 0, 90, .rectilinear), (200, 60, 20, 100, .rectilinear),
      (10, 89, 0, 90, .rectilinear), (0, -75, 0, 120, .rectilinear), (30, -90, 0, 250, .stereographic),
      (0, 10, 0, 300, .fisheye), (-170, 0, 0, 360, .equirectangular),
    ])
  func matchesExact(yaw: Double, pitch: Double, roll: Double, hfov: Double, lens: Lens) {
    let d = Self.degree
    let (fast, exact) = Self.render(
      view: ViewAngles(yaw: yaw * d, pitch: pitch * d, roll: roll * d), hfov: hfov * d, lens: lens)
    let psnr = fast.psnr(against: exact)
    #expect(psnr > 40, "\(psnr) dB at yaw \(yaw) pitch \(pitch) hfov \(hfov) \(lens)")
  }

  /// Y′CbCr out: the luma plane against the exact luma tap at each pixel, the chroma
  /// planes against exact taps at each 2 × 2 block's left column, halfway down.
  @Test("4:2:0 output matches exact taps", arguments: [(0.0, 0.0), (75, 40), (0, 88)])
  func yuvMatchesExact(yaw: Double, pitch: Double) {
    let d = Self.degree
    let view = ViewAngles(yaw: yaw * d, pitch: pitch * d)
    var renderer = try! YUVRenderer(width: Self.source.width, height: Self.source.height, video: SphericalVideo(source: "t"))
    var out = YUVImage(width: 96, height: 64)
    Self.source.withPlanes { planes in
      try! renderer.render(view: view, hfov: 90 * d, from: planes, into: &out, executor: InlineRows())
      let mapping = YUVRenderer.Mapping(
        width: 96, height: 64, view: view, hfov: 90 * d, lens: .rectilinear, video: renderer.video)
      var lumaError = 0.0, chromaError = 0.0, worst = 0.0
      for y in 0..<64 {
        for x in 0..<96 {
          let p = renderer.sourcePosition(mapping.direction(Double(x), Double(y)))
          let l = renderer.exactTap(planes.y, planes.yStride, planes.width, planes.height, p.u, p.v)!
          let e = abs(Double(out.bytes[y * 96 + x]) - l)
          lumaError += e * e
          worst = max(worst, e)
          if x % 2 == 0 && y % 2 == 0 {
            let q = renderer.sourcePosition(mapping.direction(Double(x), Double(y) + 0.5))
            let c = planes.siting.chroma(x: q.u, y: q.v)
            let cb = renderer.exactTap(planes.u, planes.uStride, planes.chromaWidth, planes.chromaHeight, c.x, c.y)!
            let got = Double(out.bytes[out.chromaOffsets.u + (y / 2) * 48 + x / 2])
            chromaError += (got - cb) * (got - cb)
          }
        }
      }
      let lumaRMS = (lumaError / (96 * 64)).squareRoot(), chromaRMS = (chromaError / (48 * 32)).squareRoot()
      #expect(lumaRMS < 1.5, "luma RMS \(lumaRMS), worst \(worst)")
      #expect(chromaRMS < 1.5, "chroma RMS \(chromaRMS)")
    }
  }

  /// The nodes are cached for yaw 0 and shifted: a turn after another view draws what a
  /// fresh renderer draws.
  @Test func cachedNodesShiftWithYaw() {
    let d = Self.degree
    var warm = try! YUVRenderer(width: Self.source.width, height: Self.source.height, video: SphericalVideo(source: "t"))
    var fresh = warm
    var a = RGBAImage(width: 64, height: 48), b = a
    Self.source.withPlanes { planes in
      try! warm.render(view: ViewAngles(yaw: 10 * d, pitch: 20 * d), hfov: 80 * d, from: planes, into: &a, executor: InlineRows())
      try! warm.render(
        view: ViewAngles(yaw: 130 * d, pitch: 20 * d), hfov: 80 * d, from: planes, into: &a, executor: InlineRows())
      try! fresh.render(
        view: ViewAngles(yaw: 130 * d, pitch: 20 * d), hfov: 80 * d, from: planes, into: &b, executor: InlineRows())
    }
    #expect(a == b)
  }

  /// The V2 pose: content at the projection's centre shows at world yaw −poseYaw and pitch
  /// +posePitch, so a clip posed by (30°, 20°) seen at yaw −30°, pitch 20° shows what an
  /// unposed one shows straight ahead.
  @Test("the pose is undone", arguments: [(30.0, 0.0), (-120, 0), (30, 20), (0, -35)])
  func poseIsUndone(yaw: Double, pitch: Double) {
    let d = Self.degree
    var posed = SphericalVideo(source: "test")
    posed.pose = ViewAngles(yaw: yaw * d, pitch: pitch * d)
    let straight = Self.render(view: ViewAngles(), hfov: 90 * d).exact
    let seen = Self.render(posed, view: ViewAngles(yaw: -yaw * d, pitch: pitch * d), hfov: 90 * d)
    #expect(seen.exact.psnr(against: straight) > 60)
    #expect(seen.fast.psnr(against: straight) > 40)
    let elsewhere = Self.render(posed, view: ViewAngles(), hfov: 90 * d).exact
    #expect(elsewhere.psnr(against: straight) < 25)
  }

  /// Crop bounds (V2's `equi` box) place a partial frame: outside it is background, inside
  /// the same picture as the full frame's.
  @Test func cropBoundsPlaceAPartialFrame() {
    var video = SphericalVideo(source: "test")
    video.cropLeft = 0.25
    video.cropRight = 0.25
    let g = video.geometry(eyeWidth: 512, eyeHeight: 256)
    #expect(abs(g.horizontalFOV - Elementary.pi) < 1e-9)
    #expect(!g.wraps)
    var renderer = try! YUVRenderer(width: 512, height: 256, video: video)
    var out = RGBAImage(width: 64, height: 32)
    Self.source.withPlanes { planes in
      try! renderer.render(
        view: ViewAngles(yaw: Elementary.pi), hfov: Elementary.halfPi, from: planes, into: &out, executor: InlineRows())
    }
    #expect(out.pixels.allSatisfy { $0 == 0xFF00_0000 }, "behind a 180° crop: background")
  }
}

@Suite("Spherical metadata")
struct SphericalVideoTests {
  static let xml = Array(
    """
    <?xml version="1.0"?><rdf:SphericalVideo xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"
     xmlns:GSpherical="http://ns.google.com/videos/1.0/spherical/"><GSpherical:Spherical>true</GSpherical:Spherical>
    <GSpherical:Stitched>true</GSpherical:Stitched><GSpherical:StitchingSoftware>Test</GSpherical:StitchingSoftware>
    <GSpherical:ProjectionType>equirectangular</GSpherical:ProjectionType>
    <GSpherical:StereoMode>top-bottom</GSpherical:StereoMode>
    <GSpherical:InitialViewHeadingDegrees> 90 </GSpherical:InitialViewHeadingDegrees></rdf:SphericalVideo>
    """.utf8)

  @Test func readsV1() throws {
    let v = try SphericalVideo.parseV1(Self.xml)
    #expect(v.projection == .equirectangular)
    #expect(v.stereo == .topBottom)
    #expect(abs(v.initialView.yaw - Elementary.halfPi) < 1e-12)
    #expect(v.source.contains("V1"))
    #expect(v.eye(width: 1000, height: 1000) == (0, 0, 1000, 500))
  }

  @Test(
    "refuses bad V1 XML, naming the element",
    arguments: [
      ("<GSpherical:Stitched>true</GSpherical:Stitched>", "without a <GSpherical:Spherical>"),
      ("<GSpherical:Spherical>false</GSpherical:Spherical>", "not true"),
      (
        "<GSpherical:Spherical>true</GSpherical:Spherical><GSpherical:StereoMode>3d</GSpherical:StereoMode>",
        "StereoMode"
      ),
      (
        "<GSpherical:Spherical>true</GSpherical:Spherical><GSpherical:InitialViewPitchDegrees>nan</GSpherical:InitialViewPitchDegrees>",
        "InitialViewPitchDegrees"
      ),
      (
        "<GSpherical:Spherical>true</GSpherical:Spherical><GSpherical:FullPanoWidthPixels>-4</GSpherical:FullPanoWidthPixels>",
        "FullPanoWidthPixels"
      ),
    ])
  func refusesBadV1(text: String, message: String) {
    #expect {
      try SphericalVideo.parseV1(Array(text.utf8))
    } throws: { error in
      "\(error)".contains(message)
    }
  }

  @Test func truncatedAndOddXMLEndsInAValueOrAnError() {
    let bytes = Self.xml
    for cut in stride(from: 0, to: bytes.count, by: 7) { _ = try? SphericalVideo.parseV1(Array(bytes[..<cut])) }
    _ = try? SphericalVideo.parseV1(Array("<GSpherical:".utf8))
    _ = try? SphericalVideo.parseV1(Array("<GSpherical:Spherical/>".utf8))
  }

  @Test func assumesFromTheShape() {
    #expect(SphericalVideo.assumed(width: 3840, height: 1920).source.contains("2:1"))
    #expect(SphericalVideo.assumed(width: 2048, height: 2048).stereo == .topBottom)
    #expect(SphericalVideo.assumed(width: 1920, height: 1080).source.contains("not 2:1"))
  }
}

@Suite("View keyframes")
struct ViewKeyframesTests {
  static let d = Elementary.pi / 180

  @Test func easesBetweenKeysAndHoldsOutside() throws {
    let keys = try ViewKeyframes([
      .init(time: 1, view: ViewAngles(yaw: 0), hfov: 90 * Self.d),
      .init(time: 3, view: ViewAngles(yaw: 90 * Self.d, pitch: 20 * Self.d), hfov: 60 * Self.d, lens: .stereographic),
    ])
    #expect(keys.view(at: 0).view.yaw == 0)
    #expect(abs(keys.view(at: 2).view.yaw - 45 * Self.d) < 1e-12, "halfway in time, halfway in angle")
    #expect(keys.view(at: 1.2).view.yaw < 0.1 * 90 * Self.d, "eased: slow away from a key")
    #expect(keys.view(at: 5).view.pitch == 20 * Self.d)
    #expect(keys.view(at: 5).lens == .stereographic)
    #expect(keys.view(at: 1.5).lens == .rectilinear)
    #expect(keys.view(at: 2).eye == 0.5, "rectilinear → stereographic: halfway, the projection is halfway")
  }

  /// Rectilinear 100° → stereographic 300° (the little planet): no lens switch, the general
  /// perspective's eye moves from the centre (rectilinear) to the far pole (stereographic);
  /// the field grows steadily, always inside what the eye can show, and the keys' own views
  /// hold at the keys.
  @Test func aRectilinearToStereographicZoomBlendsTheProjection() throws {
    let keys = try ViewKeyframes([
      .init(time: 7, view: ViewAngles(), hfov: 100 * Self.d),
      .init(time: 9, view: ViewAngles(pitch: -90 * Self.d), hfov: 300 * Self.d, lens: .stereographic),
    ])
    var last = (hfov: 0.0, eye: -1.0)
    for step in 1...199 {
      let t = 7 + Double(step) / 100
      let v = keys.view(at: t)
      let eye = try #require(v.eye, "blending at \(t) s")
      #expect(v.hfov <= Lens.perspectiveMaximumFieldOfView(eye: eye) - 0.1, "at \(t) s: \(v.hfov / Self.d)° from \(eye)")
      #expect(v.hfov > last.hfov && eye > last.eye, "the field and the eye only grow, at \(t) s")
      last = (v.hfov, eye)
    }
    // Just off the keys, the views are the keys' own (no jump onto or off a key).
    #expect(abs(keys.view(at: 7.001).hfov - 100 * Self.d) < 1e-3)
    #expect(abs(keys.view(at: 8.999).hfov - 300 * Self.d) < 1e-3)
    #expect(keys.view(at: 7).lens == .rectilinear && keys.view(at: 7).eye == nil)
    #expect(keys.view(at: 9).lens == .stereographic && keys.view(at: 9).eye == nil)
    // Narrowing back (stereographic 300° → rectilinear 100°) mirrors it.
    let back = try ViewKeyframes([
      .init(time: 0, view: ViewAngles(), hfov: 300 * Self.d, lens: .stereographic),
      .init(time: 2, view: ViewAngles(), hfov: 100 * Self.d, lens: .rectilinear),
    ])
    #expect(abs(back.view(at: 0.5).hfov - keys.view(at: 8.5).hfov) < 1e-9)
    #expect(back.view(at: 2).lens == .rectilinear)
  }

  /// Other lenses still switch the moment the eased field outgrows the lens before it.
  @Test func anotherLensSwitchesWhenTheEasedFieldOutgrowsIt() throws {
    let keys = try ViewKeyframes([
      .init(time: 7, view: ViewAngles(), hfov: 100 * Self.d),
      .init(time: 9, view: ViewAngles(), hfov: 300 * Self.d, lens: .fisheye),
    ])
    #expect(keys.view(at: 7.8).lens == .rectilinear)
    #expect(keys.view(at: 7.9).lens == .fisheye)
  }

  /// The range a key's field is checked against is the command line's `--hfov` range.
  @Test func refusesAFieldTheLensCannotShowInTheCommandLinesTerms() {
    #expect {
      try ViewKeyframes([.init(time: 0, view: ViewAngles(), hfov: 250 * Self.d)])
    } throws: { error in
      "\(error)" == "key 1: hfov 250 is outside 1…179 for the rectilinear lens"
    }
    #expect(throws: ViewKeyframes.KeyError.self) {
      try ViewKeyframes([.init(time: 0, view: ViewAngles(), hfov: 179.3 * Self.d)])
    }
    #expect(throws: ViewKeyframes.KeyError.self) {
      try ViewKeyframes([.init(time: 0, view: ViewAngles(), hfov: 0.5 * Self.d)])
    }
    #expect(throws: Never.self) {
      try ViewKeyframes([
        .init(time: 0, view: ViewAngles(), hfov: 179 * Self.d), .init(time: 1, view: ViewAngles(), hfov: 1 * Self.d),
        .init(time: 2, view: ViewAngles(), hfov: 359 * Self.d, lens: .stereographic),
        .init(time: 3, view: ViewAngles(), hfov: 360 * Self.d, lens: .fisheye),
      ])
    }
  }

  @Test func refusesKeysOutOfOrder() {
    #expect {
      try ViewKeyframes([
        .init(time: 2, view: ViewAngles(), hfov: 1), .init(time: 3, view: ViewAngles(), hfov: 1),
        .init(time: 2.5, view: ViewAngles(), hfov: 1),
      ])
    } throws: { error in
      "\(error)" == "key 3: at 2.5 s, not after key 2 at 3 s: keys must be in time order"
    }
  }
}

/// The docs' little-planet zoom (docs/video.md: rectilinear 100° at 7 s → stereographic 300°
/// looking down at 9 s), rendered at 30 frames a second as `pano reframe --keys` does, and
/// judged as a viewer would: frame to frame.
@Suite("Little-planet zoom")
struct LittlePlanetZoomTests {
  static let d = Elementary.pi / 180
  static let keys = try! ViewKeyframes([
    .init(time: 7, view: ViewAngles(), hfov: 100 * d),
    .init(time: 9, view: ViewAngles(pitch: -90 * d), hfov: 300 * d, lens: .stereographic),
  ])
  static let times = (0...60).map { 7 + Double($0) / 30 }

  static func mapping(at t: Double, width: Int, height: Int) -> YUVRenderer.Mapping {
    let v = keys.view(at: t)
    let (view, fov) = YUVRenderer.safe(v.view, v.hfov, v.lens, eye: v.eye)
    return YUVRenderer.Mapping(
      width: width, height: height, view: view, hfov: fov, lens: v.lens, eye: v.eye, video: SphericalVideo(source: "t"))
  }

  /// Mean absolute difference (0…255, over RGB) between consecutive frames: no frame may
  /// change more than 2.5× the median change of the frames around it (a jump), and the
  /// changes stay small throughout (a smooth zoom over 60 frames).
  @Test func noFrameJumps() {
    let source = YUVRendererTests.source
    var renderer = try! YUVRenderer(width: source.width, height: source.height, video: SphericalVideo(source: "t"))
    let frames: [RGBAImage] = Self.times.map { t in
      let v = Self.keys.view(at: t)
      var out = RGBAImage(width: 160, height: 90)
      source.withPlanes { planes in
        try! renderer.render(
          view: v.view, hfov: v.hfov, lens: v.lens, eye: v.eye, from: planes, into: &out, executor: InlineRows())
      }
      return out
    }
    var changes: [Double] = []
    for i in 1..<frames.count {
      var sum = 0.0
      for y in 0..<90 {
        for x in 0..<160 {
          let a = frames[i - 1][x, y], b = frames[i][x, y]
          for shift in [0, 8, 16] as [UInt32] {
            sum += abs(Double((a >> shift) & 255) - Double((b >> shift) & 255))
          }
        }
      }
      changes.append(sum / Double(160 * 90 * 3))
    }
    for i in changes.indices {
      let around = (max(0, i - 4)...min(changes.count - 1, i + 4)).filter { $0 != i }.map { changes[$0] }.sorted()
      let median = around[around.count / 2]
      #expect(
        changes[i] <= 2.5 * median + 1,
        "frame \(i + 1) (\(Self.times[i + 1]) s) changes by \(changes[i]), the frames around it by \(median)")
    }
  }

  /// The blended projection is drawn by the block interpolation (and the C kernels behind
  /// it) as the float64 reference draws it, and an eye of 0 or 1 is exactly the rectilinear
  /// or stereographic lens.
  @Test func theBlendedProjectionMatchesTheReference() {
    let source = YUVRendererTests.source
    var renderer = try! YUVRenderer(width: source.width, height: source.height, video: SphericalVideo(source: "t"))
    source.withPlanes { planes in
      for (eye, hfov) in [(0.4, 170.0), (0.8, 250)] {
        var fast = RGBAImage(width: 160, height: 90)
        let view = ViewAngles(yaw: 0.3, pitch: -60 * Self.d)
        try! renderer.render(view: view, hfov: hfov * Self.d, eye: eye, from: planes, into: &fast, executor: InlineRows())
        let exact = renderer.renderExact(view: view, hfov: hfov * Self.d, eye: eye, from: planes, width: 160, height: 90)
        #expect(fast.psnr(against: exact) > 40, "eye \(eye), \(hfov)°")
      }
    }
    for r in [0.1, 1.0, 3.0] {
      let flat = Lens.perspectiveRay(x: r, y: 0.5, eye: 0), planet = Lens.perspectiveRay(x: r, y: 0.5, eye: 1)
      #expect(flat == Lens.rectilinear.ray(x: r, y: 0.5))
      #expect(abs(planet.z - Lens.stereographic.ray(x: r, y: 0.5).z) < 1e-12)
      #expect(abs(Lens.perspectiveAngle(atRadius: r, eye: 1) - Lens.stereographic.angle(atRadius: r)) < 1e-12)
    }
  }

  /// Streaks: a view wider than its projection can comfortably show magnifies its edge
  /// thousands of times more than its centre (a rectilinear view near 179°). The angle
  /// between neighbouring pixels at the frame's side, against the centre's, stays within what
  /// the little planet's own rim has (about 1/15) at every frame.
  @Test func noFrameSmearsIntoStreaks() {
    for t in Self.times {
      let m = Self.mapping(at: t, width: 160, height: 90)
      func step(_ x: Double, _ y: Double) -> Double {
        let a = m.direction(x, y), b = m.direction(x + 1, y)
        let na = (a.x * a.x + a.y * a.y + a.z * a.z).squareRoot(), nb = (b.x * b.x + b.y * b.y + b.z * b.z).squareRoot()
        let dot = (a.x * b.x + a.y * b.y + a.z * b.z) / (na * nb)
        return Elementary.acos(min(1, dot))
      }
      let ratio = step(158, 44.5) / step(79.5, 44.5)
      #expect(ratio > 1.0 / 20, "at \(t) s the side is magnified \(1 / ratio)× the centre")
    }
  }
}
