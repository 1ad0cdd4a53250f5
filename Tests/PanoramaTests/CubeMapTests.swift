import CoreMath
import TestSupport
import Testing

@testable import Panorama

/// The cube-face source: against an exact answer (a colour that is a known function of the
/// direction), across edges and corners, and against the equirectangular view it was cut from.
@Suite("Cube map")
struct CubeMapTests {
  /// A smooth colour per direction: what an exact renderer shows there.
  static func colour(_ x: Double, _ y: Double, _ z: Double) -> UInt32 {
    let n = (x * x + y * y + z * z).squareRoot()
    func c(_ v: Double) -> UInt32 { UInt32((127.5 + 127.5 * v / n).rounded()) }
    return 0xFF00_0000 | c(z) << 16 | c(y) << 8 | c(x)
  }

  static func analyticCube(size: Int) -> CubeMap {
    let faces = (0..<6).map { face in
      var image = RGBAImage(width: size, height: size)
      for y in 0..<size {
        for x in 0..<size {
          let d = CubeFace.direction(face: face, u: (Double(x) + 0.5) / Double(size), v: (Double(y) + 0.5) / Double(size))
          image[x, y] = colour(d.x, d.y, d.z)
        }
      }
      return image
    }
    return CubeMap(faces: faces)!
  }

  /// Largest channel difference between two pixels.
  static func difference(_ a: UInt32, _ b: UInt32) -> Int {
    (0..<4).map { abs(Int((a >> UInt32(8 * $0)) & 0xFF) - Int((b >> UInt32(8 * $0)) & 0xFF)) }.max()!
  }

  @Test func edgesAndCornersAreAsExactAsTheMiddle() {
    let cube = Self.analyticCube(size: 16)
    // Straight at an edge (front|right), at a corner (front|right|up), at the middle.
    let views = [
      ("middle", ViewAngles(yaw: 0.1, pitch: 0.05)), ("edge", ViewAngles(yaw: Elementary.halfPi / 2)),
      ("corner", ViewAngles(yaw: Elementary.halfPi / 2, pitch: 0.6155)), ("down", ViewAngles(yaw: 2, pitch: -1.4)),
    ]
    for (name, view) in views {
      for lens in Lens.allCases {
        var frame = RGBAImage(width: 96, height: 64)
        cube.render(view: view, hfov: 1.4, lens: lens, into: &frame, executor: InlineRows())
        // The exact answer: the colour of each pixel's own ray.
        var worst = 0
        let focal = lens.focalLength(halfWidth: 48, fieldOfView: 1.4)
        let (sy, cy) = Elementary.sinCos(view.yaw), (sp, cp) = Elementary.sinCos(view.pitch)
        for j in 0..<64 {
          for i in 0..<96 {
            let r = lens.ray(x: (Double(i) + 0.5 - 48) / focal, y: (32 - Double(j) - 0.5) / focal)
            let y1 = r.y * cp + r.z * sp, z1 = r.z * cp - r.y * sp
            let exact = Self.colour(r.x * cy + z1 * sy, y1, z1 * cy - r.x * sy)
            worst = max(worst, Self.difference(frame[i, j], exact))
          }
        }
        // 16-pixel faces, so a texel spans about 16 levels: bilinear stays within 2 everywhere;
        // clamping at the edges instead of reading the neighbour face is off by 3–4 there.
        #expect(worst <= 2, "\(name) \(lens): \(worst)")
      }
    }
  }

  @Test func aCubeCutFromAnEquirectangularShowsTheSameViews() {
    let source = try! SamplePanorama.make(width: 2048)
    var renderer = try! PanoramaRenderer(source: source, geometry: PanoramaGeometry(width: 2048, height: 1024))
    let cube = CubeMap.faces(from: &renderer, size: 512, executor: InlineRows())
    for view in [ViewAngles(yaw: 0.3, pitch: 0.2), ViewAngles(yaw: 2.4, pitch: -0.5), ViewAngles(yaw: -1, pitch: 1.2)] {
      var a = RGBAImage(width: 160, height: 90), b = RGBAImage(width: 160, height: 90)
      renderer.renderPerspective(view: view, hfov: 1.2, into: &a, executor: InlineRows())
      cube.render(view: view, hfov: 1.2, into: &b, executor: InlineRows())
      let psnr = a.psnr(against: b)
      #expect(psnr > 30, "\(view): \(psnr) dB")
    }
  }

  /// The exact view's largest channel error: every pixel's own ray, coloured analytically.
  static func worstAgainstExact(_ frame: RGBAImage, view: ViewAngles, hfov: Double, lens: Lens) -> Int {
    var worst = 0
    let w = frame.width, h = frame.height
    let focal = lens.focalLength(halfWidth: Double(w) / 2, fieldOfView: hfov)
    let (sy, cy) = Elementary.sinCos(view.yaw), (sp, cp) = Elementary.sinCos(view.pitch)
    let (sr, cr) = Elementary.sinCos(view.roll)
    for j in 0..<h {
      for i in 0..<w {
        let q = lens.ray(x: (Double(i) + 0.5 - Double(w) / 2) / focal, y: (Double(h) / 2 - Double(j) - 0.5) / focal)
        let r = (x: q.x * cr + q.y * sr, y: q.y * cr - q.x * sr, z: q.z)
        let y1 = r.y * cp + r.z * sp, z1 = r.z * cp - r.y * sp
        worst = max(worst, difference(frame[i, j], colour(r.x * cy + z1 * sy, y1, z1 * cy - r.x * sy)))
      }
    }
    return worst
  }

  /// The grid renderer (rays at block corners, one division a pixel) against the exact
  /// view and the direct renderer, with roll and at fields of view up to 300°, where the
  /// fisheye's and equirectangular's rays bend most between corners.
  @Test func theGridRendererIsExactAtEveryLensAndEdge() {
    let cube = Self.analyticCube(size: 256)
    let views = [
      ViewAngles(yaw: Elementary.halfPi / 2, pitch: 0.6155, roll: 0.3), ViewAngles(yaw: -2.9, pitch: -1.2),
      ViewAngles(yaw: 0.7, pitch: 1.5707),
    ]
    for view in views {
      for lens in Lens.allCases {
        for hfov in [0.3, 1.6, min(lens.maximumFieldOfView, 5.2)] {
          var grid = RGBAImage(width: 200, height: 120), direct = RGBAImage(width: 200, height: 120)
          cube.render(view: view, hfov: hfov, lens: lens, into: &grid, executor: InlineRows())
          cube.renderDirect(view: view, hfov: hfov, lens: lens, into: &direct, executor: InlineRows())
          var apart = 0
          for k in 0..<grid.pixels.count { apart = max(apart, Self.difference(grid.pixels[k], direct.pixels[k])) }
          #expect(apart <= 1, "\(view) \(lens) \(hfov): \(apart) from the direct renderer")
          let worst = Self.worstAgainstExact(grid, view: view, hfov: hfov, lens: lens)
          #expect(worst <= 1, "\(view) \(lens) \(hfov): \(worst) from exact")
        }
      }
    }
  }

  /// A one-texel checkerboard seen wide: each pixel covers about six texels, whose mean is
  /// mid-grey. With mip levels every pixel is close to it; without, pixels pick single texels
  /// (black or white), which is the shimmer a moving view shows.
  @Test func mipLevelsAverageWhatAWideViewWouldSkip() {
    let size = 512
    let checker = (0..<6).map { _ in
      var image = RGBAImage(width: size, height: size)
      for y in 0..<size { for x in 0..<size { image[x, y] = (x + y) % 2 == 0 ? 0xFFFF_FFFF : 0xFF00_0000 } }
      return image
    }
    let plain = CubeMap(faces: checker)!, mipped = plain.withMipLevels()
    #expect(mipped.levelCount == 7)  // 256, 128, … 8
    #expect(mipped.faceSize(level: 6) == 8)
    func rms(_ cube: CubeMap) -> Double {
      var frame = RGBAImage(width: 128, height: 96)
      cube.render(view: ViewAngles(yaw: 0.4, pitch: 0.3), hfov: 2.5, into: &frame, executor: InlineRows())
      let sum = frame.pixels.reduce(0.0) { total, p in
        let g = Double(p & 0xFF) - 127.5
        return total + g * g
      }
      return (sum / Double(frame.pixels.count)).squareRoot()
    }
    let with = rms(mipped), without = rms(plain)
    #expect(with < 12, "with mip levels: \(with) from the exact mean")
    #expect(without > 3 * with && without > 30, "without: \(without)")
  }

  /// A tiled cube's table (one lookup a texel) reads what a walk up the pyramid reads,
  /// with tiles missing at every level but the coarsest.
  @Test func aTiledCubesTableReadsTheFinestLoadedCover() {
    let layout = MultiresLayout(cubeResolution: 80, tileResolution: 16, maxLevel: 4)!
    var cube = TiledCube(layout: layout, level: 4)
    var rng = SeededRandom(seed: 7)
    for level in 1...4 {
      let n = layout.tilesPerSide(level: level)
      for face in 0..<6 {
        for y in 0..<n {
          for x in 0..<n {
            // A third of the finer tiles missing.
            guard level == 1 || Int.random(in: 0..<3, using: &rng) != 0 else { continue }
            let (w, h) = layout.tileSize(level: level, x: x, y: y)
            var tile = RGBAImage(width: w, height: h)
            for k in 0..<tile.pixels.count { tile.pixels[k] = UInt32(level << 24 | face << 16 | k) }
            cube.tiles[TileID(level: level, face: face, x: x, y: y)] = tile
          }
        }
      }
    }
    let texels = cube.texels()
    #expect(texels.levelCount == 4)
    for k in 0..<4 {
      let size = texels.faceSize(level: k)
      #expect(size == layout.faceSize(level: 4 - k))
      var walk = TiledCube(layout: layout, level: 4 - k)
      walk.tiles = cube.tiles
      for face in 0..<6 {
        for y in 0..<size {
          for x in 0..<size {
            #expect(texels.texel(level: k, face: face, x: x, y: y) == walk.texel(face, x, y))
          }
        }
      }
    }
  }

  /// The stepped blocks (face coordinates at 3×3 points a run, stepped in fixed point, four
  /// pixels at a time) against the reference that casts a ray a pixel, on a sharp grid (the
  /// picture where an interpolation error shows): a cube with mip levels, and a pyramid with
  /// tiles of 32 texels (tile edges in every view) and a third of them missing, every lens,
  /// with roll, fields of view from 20° to 300°, and frame sizes that are no multiple of the
  /// blocks. Every pixel within 3 levels of the reference's for the rectilinear lens (its
  /// weights are rounded once, the reference's twice), 8 for the others, and the frames above
  /// 48 dB apart (49.6–58 here: stepped and reference are equally far from a direct ray a pixel).
  @Test func steppedBlocksDrawWhatTheReferenceDraws() throws {
    let source = TiledRenderTests.grid(width: 1024, spacing: 16)
    var renderer = try! PanoramaRenderer(source: source, geometry: PanoramaGeometry(width: 1024, height: 512))
    let cube = CubeMap.faces(from: &renderer, size: 256, executor: InlineRows()).withMipLevels()
    let layout = try #require(MultiresLayout(cubeResolution: 256, tileResolution: 32, maxLevel: 4))
    var rng = SeededRandom(seed: 11)
    let tiled = TiledCube.cut(from: cube, layout: layout) { id in
      id.level == 1 || Int.random(in: 0..<3, using: &rng) != 0
    }
    let degree = Elementary.pi / 180
    let views: [(ViewAngles, Double, Lens)] = [
      (ViewAngles(yaw: 0.3, pitch: 0.2), 90, .rectilinear),
      (ViewAngles(yaw: 45 * degree, pitch: 35.26 * degree), 20, .rectilinear),
      (ViewAngles(yaw: -2.4, pitch: -0.7, roll: 0.4), 120, .rectilinear), (ViewAngles(yaw: 1, pitch: 1.5), 100, .rectilinear),
      (ViewAngles(yaw: 0.5, pitch: -Elementary.halfPi), 300, .stereographic), (ViewAngles(yaw: 2, pitch: 0.6), 180, .fisheye),
      (ViewAngles(yaw: -1, pitch: 0.1, roll: -0.2), 200, .equirectangular), (ViewAngles(yaw: 0.8, pitch: 0.4), 60, .fisheye),
    ]
    for (view, hfov, lens) in views {
      for (name, stepped, reference) in [
        (
          "cube",
          { (f: inout RGBAImage) in cube.render(view: view, hfov: hfov * degree, lens: lens, into: &f, executor: InlineRows()) },
          { (f: inout RGBAImage) in
            cube.renderReference(view: view, hfov: hfov * degree, lens: lens, into: &f, executor: InlineRows())
          }
        ),
        (
          "tiled",
          { (f: inout RGBAImage) in tiled.render(view: view, hfov: hfov * degree, lens: lens, into: &f, executor: InlineRows()) },
          { (f: inout RGBAImage) in
            tiled.renderReference(view: view, hfov: hfov * degree, lens: lens, into: &f, executor: InlineRows())
          }
        ),
      ] {
        var a = RGBAImage(width: 301, height: 171), b = a
        stepped(&a)
        reference(&b)
        var apart = 0
        for k in 0..<a.pixels.count { apart = max(apart, Self.difference(a.pixels[k], b.pixels[k])) }
        let psnr = a.psnr(against: b)
        // Other lenses' reference interpolates unit rays between block corners, a few
        // hundredths of a texel from the exact rays the stepped nodes are cast along.
        let most = lens == .rectilinear ? 3 : 8
        #expect(apart <= most && psnr > 48, "\(name) \(view) \(hfov)° \(lens): \(apart) levels apart at most, \(psnr) dB")
      }
    }
  }

  /// A pyramid with every tile loaded draws what the cube it was cut from draws, across its
  /// tile edges: rows cut where their taps pass from one tile to the next read each run from
  /// its own tile, and the pixels whose taps straddle an edge (looked up tap by tap) the
  /// texels on both sides. On a sharp grid a texel read from the wrong tile or place is
  /// 200 levels off; rounding (the straddling pixels are blended in another order, and a cut
  /// row's runs start from their own exact values) leaves a level or two.
  @Test func aFullPyramidDrawsItsCubesPixelsAcrossTileEdges() throws {
    let source = TiledRenderTests.grid(width: 1024, spacing: 16)
    var renderer = try! PanoramaRenderer(source: source, geometry: PanoramaGeometry(width: 1024, height: 512))
    let cube = CubeMap.faces(from: &renderer, size: 256, executor: InlineRows()).withMipLevels()
    let layout = try #require(MultiresLayout(cubeResolution: 256, tileResolution: 32, maxLevel: 4))
    let tiled = TiledCube.cut(from: cube, layout: layout)
    let degree = Elementary.pi / 180
    let table = tiled.texels()
    for (view, hfov, lens) in [
      (ViewAngles(yaw: 0.3, pitch: 0.2), 90.0, Lens.rectilinear),
      (ViewAngles(yaw: -2.4, pitch: -0.7, roll: 0.4), 60, .rectilinear),
      (ViewAngles(yaw: 1, pitch: 1.2), 100, .rectilinear), (ViewAngles(yaw: 0.8, pitch: 0.4), 60, .fisheye),
      (ViewAngles(yaw: 2, pitch: -0.3), 120, .stereographic),
    ] {
      var a = RGBAImage(width: 301, height: 171), b = a, c = a
      cube.render(view: view, hfov: hfov * degree, lens: lens, into: &a, executor: InlineRows())
      tiled.render(view: view, hfov: hfov * degree, lens: lens, into: &b, executor: InlineRows())
      table.render(view: view, hfov: hfov * degree, lens: lens, into: &c, executor: InlineRows())
      var apart = 0
      for k in 0..<a.pixels.count { apart = max(apart, Self.difference(a.pixels[k], b.pixels[k])) }
      #expect(apart <= 2, "\(view) \(hfov)° \(lens): \(apart) levels apart at most")
      #expect(b == c, "a kept table draws what a fresh one draws")
    }
  }

  @Test func wrongFacesAreRefused() {
    #expect(CubeMap(faces: []) == nil)
    let square = RGBAImage(width: 8, height: 8), other = RGBAImage(width: 8, height: 4)
    #expect(CubeMap(faces: Array(repeating: square, count: 5)) == nil)
    #expect(CubeMap(faces: Array(repeating: square, count: 5) + [other]) == nil)
  }
}
