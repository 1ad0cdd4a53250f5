import CoreMath
import Testing

@testable import Panorama

/// The streaming tiler: a band of rows at a time must give the tiles the whole image gives.
@Suite("Cube tiler")
struct CubeTilerTests {
  struct Run {
    var tiles: [CubeTile] = []
    var reducer: BoxReducer
    var bufferRows = 0
    var maxPending = 0
  }

  /// Tiles `source` through the streaming path, reading it `chunk` rows at a time.
  static func stream(
    _ source: RGBAImage, geometry: PanoramaGeometry, layout: MultiresLayout, chunk: Int = 16
  ) throws -> Run {
    let plan = CubeTilePlan(layout: layout, geometry: geometry, sourceWidth: source.width, sourceHeight: source.height)
    var run = Run(reducer: BoxReducer(sourceWidth: source.width, sourceHeight: source.height, factor: 4))
    run.bufferRows = CubeTiler.bufferRows(plan: plan, sourceHeight: source.height, chunk: chunk)
    var next = 0
    var tiles: [CubeTile] = []
    let error = CubeTiler.run(
      plan: plan, geometry: geometry, sourceWidth: source.width, sourceHeight: source.height, reducer: &run.reducer,
      chunk: chunk, executor: InlineRows(),
      read: { buffer, at, count in
        for i in 0..<(count * source.width) { buffer.pixels[at * source.width + i] = source.pixels[next * source.width + i] }
        next += count
        return nil
      },
      emit: { batch in
        tiles += batch
        return nil
      })
    #expect(error == nil)
    #expect(next == source.height, "every row is read once")
    run.tiles = tiles
    return run
  }

  static func crop(_ image: RGBAImage, x: Int, y: Int, width: Int, height: Int) -> RGBAImage {
    var out = RGBAImage(width: width, height: height)
    for row in 0..<height {
      for column in 0..<width { out[column, row] = image[x + column, y + row] }
    }
    return out
  }

  /// The exact tile: each pixel's direction in doubles (``CubeFace``'s frame, its true
  /// longitude), a bilinear sample in doubles (x wraps, y clamps), background outside a
  /// partial panorama's rows and columns; rounded once.
  static func exactTile(
    _ source: RGBAImage, geometry: PanoramaGeometry, face: Int, x: Int, y: Int, width: Int, height: Int, cube: Int
  ) -> RGBAImage {
    let renderer = try! PanoramaRenderer(source: source, geometry: geometry)
    let w = source.width, h = source.height
    let period = geometry.fullWidth * Double(w) / geometry.croppedWidth
    var out = RGBAImage(width: width, height: height)
    for j in 0..<height {
      for i in 0..<width {
        let d = CubeFace.direction(
          face: face, u: (Double(x + i) + 0.5) / Double(cube), v: (Double(y + j) + 0.5) / Double(cube))
        let p = renderer.sourcePosition(Vector3(d.x, d.y, d.z))
        var u = p.u
        if geometry.wraps { u -= (u / period).rounded(.down) * period }
        if !geometry.wraps && (u < -1 || u >= Double(w)) || (!geometry.wraps && (p.v < -1 || p.v >= Double(h))) {
          out[i, j] = RGBAImage.pack(r: 0, g: 0, b: 0)
          continue
        }
        out[i, j] = PolarCapTests.bilinear(source, u: u, v: p.v, wraps: geometry.wraps)
      }
    }
    return out
  }

  /// The finest faces of `source` (a full sphere), whole, as the streaming tiler draws them at
  /// `cube` px (tiles of `cube / 2`).
  static func finestFaces(_ source: RGBAImage, cube: Int) throws -> [RGBAImage] {
    let ts = cube / 2
    let layout = try #require(MultiresLayout(cubeResolution: cube, tileResolution: ts, maxLevel: 2))
    let run = try stream(source, geometry: PanoramaGeometry(width: source.width, height: source.height), layout: layout)
    var faces = [RGBAImage](repeating: RGBAImage(width: cube, height: cube), count: 6)
    for tile in run.tiles where tile.level == 2 {
      for y in 0..<tile.image.height {
        for x in 0..<tile.image.width { faces[tile.face][tile.x * ts + x, tile.y * ts + y] = tile.image[x, y] }
      }
    }
    return faces
  }

  /// What each kernel keeps of detail near the source's own resolution: a source of waves 5 px
  /// long across and down (band-limited, so its exact value between pixels is known) drawn on
  /// the front face at generate.py's face size, the face's middle (face and source pixels about
  /// the same size) against the waves' exact values there. A bilinear tap halfway between
  /// pixels takes 29 % off such a wave; the sharper kernels keep it.
  @Test(arguments: CubeFaceFilter.Kernel.allCases)
  func kernelsKeepDetailAtTheSourcesResolution(_ kernel: CubeFaceFilter.Kernel) throws {
    let width = 256, height = 128, period = 5.0
    func wave(_ u: Double, _ v: Double) -> Double {
      128 + 50 * Elementary.cos(2 * Double.pi * u / period) + 50 * Elementary.cos(2 * Double.pi * v / period)
    }
    var source = RGBAImage(width: width, height: height)
    for y in 0..<height {
      for x in 0..<width {
        let g = UInt8(wave(Double(x), Double(y)).rounded())
        source[x, y] = RGBAImage.pack(r: g, g: g, b: g)
      }
    }
    let cube = 8 * Int(Double(width) / Double.pi / 8)  // 80, generate.py's default
    let filter = CubeFaceFilter(
      band: source, firstRow: 0, sourceHeight: height, geometry: PanoramaGeometry(width: width, height: height),
      background: 0, kernel: kernel)
    var front = RGBAImage(width: cube / 2, height: cube / 2)
    filter.draw(face: 0, cubeSize: cube, x: cube / 4, y: cube / 4, into: &front, executor: InlineRows())
    var sum = 0.0
    for j in 0..<front.height {
      for i in 0..<front.width {
        let d = CubeFace.direction(
          face: 0, u: (Double(cube / 4 + i) + 0.5) / Double(cube), v: (Double(cube / 4 + j) + 0.5) / Double(cube))
        let lon = Elementary.atan2(d.x, d.z), lat = Elementary.atan2(d.y, (d.x * d.x + d.z * d.z).squareRoot())
        let u = (lon / (2 * Double.pi) + 0.5) * Double(width) - 0.5, v = (0.5 - lat / Double.pi) * Double(height) - 0.5
        let e = Double(RGBAImage.unpack(front[i, j]).g) - wave(u, v)
        sum += e * e
      }
    }
    let psnr = 10 * Elementary.log(255 * 255 / (sum / Double(front.pixels.count))) / Elementary.log(10)
    let floor: [CubeFaceFilter.Kernel: Double] = [.bilinear: 31, .cubic: 41, .lanczos3: 48]  // 33.3, 43.7, 51.1
    #expect(psnr > floor[kernel]!, "the front face's middle against the exact waves: \(psnr) dB")
  }

  /// Where a face pixel spans many source columns (near a pole) it averages them: columns
  /// alternating black and white draw the polar cap grey, not a moiré of the two.
  @Test func faceAveragesTheColumnsAPolarPixelSpans() throws {
    let width = 256, height = 128
    var source = RGBAImage(width: width, height: height)
    for y in 0..<height {
      for x in 0..<width { source[x, y] = x % 2 == 0 ? RGBAImage.pack(r: 0, g: 0, b: 0) : RGBAImage.pack(r: 255, g: 255, b: 255) }
    }
    let cube = 80
    let up = try Self.finestFaces(source, cube: cube)[4]
    var worst = 0
    // Latitudes above 70°, where a pixel spans 3 columns or more: 14 off at worst (the old
    // bilinear tap: 128).
    for j in (3 * cube / 8)..<(5 * cube / 8) {
      for i in (3 * cube / 8)..<(5 * cube / 8) { worst = max(worst, abs(Int(RGBAImage.unpack(up[i, j]).g) - 128)) }
    }
    #expect(worst <= 20, "a pixel of the up face's middle is \(worst) from the columns' mean grey")
  }

  /// Every tile of every level once; the finest as the exact reprojection shows them
  /// (40+ dB: the face filter is bilinear where it does not minify), each coarser level
  /// exactly the finer faces halved; and the band held is a fraction of the image. The
  /// partial panorama's back face holds both sides of its ±180° seam (drawn as a view turned
  /// 180°, the old tiler showed background past the seam: 5 dB).
  @Test(arguments: ["full", "partial"])
  func streamedTilesAreTheExactViewsAndTheirHalvings(_ kind: String) throws {
    let source = PolarCapTests.isotropicTexture(width: 1024)
    var geometry = PanoramaGeometry(width: source.width, height: source.height)
    if kind == "partial" {
      // 307° × 153° of a sphere 1200 px round: the tiles past its edges are background.
      geometry = PanoramaGeometry(
        projection: .equirectangular, fullWidth: 1200, fullHeight: 600, croppedLeft: 88, croppedTop: 40,
        croppedWidth: 1024, croppedHeight: 512)
    }
    let cube = 320, ts = 64
    let layout = try #require(MultiresLayout(cubeResolution: cube, tileResolution: ts, maxLevel: 4))
    let run = try Self.stream(source, geometry: geometry, layout: layout)
    for level in 1...4 {
      let tiles = run.tiles.filter { $0.level == level }
      #expect(tiles.count == layout.tileCount(level: level), "level \(level)")
      let keys = Set(tiles.map { [$0.face, $0.x, $0.y] })
      #expect(keys.count == tiles.count, "no tile twice at level \(level)")
    }
    var faces = [RGBAImage](repeating: RGBAImage(width: cube, height: cube), count: 6)
    var worst = 99.0
    for tile in run.tiles where tile.level == 4 {
      let (w, h) = layout.tileSize(level: 4, x: tile.x, y: tile.y)
      #expect(tile.image.width == w && tile.image.height == h)
      let exact = Self.exactTile(
        source, geometry: geometry, face: tile.face, x: tile.x * ts, y: tile.y * ts, width: w, height: h, cube: cube)
      worst = min(worst, tile.image.psnr(against: exact))
      for y in 0..<h {
        for x in 0..<w { faces[tile.face][tile.x * ts + x, tile.y * ts + y] = tile.image[x, y] }
      }
    }
    // A partial panorama's edge (background beyond it) is where a pixel can flip.
    #expect(worst > (kind == "full" ? 40 : 38), "the worst finest tile against the exact one: \(worst) dB")
    for level in stride(from: 3, through: 1, by: -1) {
      faces = faces.map { $0.halved() }
      for tile in run.tiles where tile.level == level {
        let (w, h) = layout.tileSize(level: level, x: tile.x, y: tile.y)
        let expected = Self.crop(faces[tile.face], x: tile.x * ts, y: tile.y * ts, width: w, height: h)
        #expect(tile.image == expected, "level \(level) face \(tile.face) tile \(tile.x),\(tile.y)")
      }
    }
    #expect(run.bufferRows < source.height * 3 / 4, "a band, not the image: \(run.bufferRows) rows")
  }

  /// The plan's row range holds every row a tile's pixels read, checked pixel by pixel.
  /// A small source has all its rows in at the first read: the tiles were then all drawn
  /// before any was written (20 GB for `pano tiles --cube-size 30000` of a tiny image). They
  /// come in batches of at most `batchBytes`, and the tiles are the same.
  @Test func aSmallSourceWithLargeFacesIsDrawnInBoundedBatches() throws {
    let source = try SamplePanorama.make(width: 64)
    let geometry = PanoramaGeometry(width: source.width, height: source.height)
    let layout = try #require(MultiresLayout(cubeResolution: 256, tileResolution: 16, maxLevel: 5))
    let plan = CubeTilePlan(layout: layout, geometry: geometry, sourceWidth: source.width, sourceHeight: source.height)
    var reducer = BoxReducer(sourceWidth: source.width, sourceHeight: source.height, factor: 4)
    var next = 0, largest = 0, finest = 0
    let error = CubeTiler.run(
      plan: plan, geometry: geometry, sourceWidth: source.width, sourceHeight: source.height, reducer: &reducer,
      executor: InlineRows(), batchBytes: 10 * 16 * 16 * 4,
      read: { buffer, at, count in
        for i in 0..<(count * source.width) { buffer.pixels[at * source.width + i] = source.pixels[next * source.width + i] }
        next += count
        return nil
      },
      emit: { batch in
        let drawn = batch.filter { $0.level == layout.maxLevel }.count
        largest = max(largest, drawn)
        finest += drawn
        return nil
      })
    #expect(error == nil)
    #expect(finest == layout.tileCount(level: layout.maxLevel))
    #expect(largest <= 10, "\(largest) finest tiles drawn before any was written")
  }

  @Test func everyTileReadsOnlyItsRows() throws {
    let geometry = PanoramaGeometry(width: 2000, height: 1000)
    let layout = try #require(MultiresLayout(cubeResolution: 640, tileResolution: 128, maxLevel: 4))
    let plan = CubeTilePlan(layout: layout, geometry: geometry, sourceWidth: 2000, sourceHeight: 1000)
    #expect(plan.entries.count == 6 * 25)
    #expect(zip(plan.entries, plan.entries.dropFirst()).allSatisfy { $0.rows.upperBound <= $1.rows.upperBound })
    for entry in plan.entries {
      for j in stride(from: 0, to: 128, by: 7) {
        for i in stride(from: 0, to: 128, by: 7) {
          let u = (Double(entry.x * 128 + i) + 0.5) / 640, v = (Double(entry.y * 128 + j) + 0.5) / 640
          let d = CubeFace.direction(face: entry.face, u: u, v: v)
          let n = (d.x * d.x + d.y * d.y + d.z * d.z).squareRoot()
          let latitude = Elementary.atan2(d.y / n, (d.x * d.x + d.z * d.z).squareRoot() / n)
          let row = (0.5 - latitude / Double.pi) * 1000 - 0.5
          let taps = Int(row.rounded(.down))...Int(row.rounded(.down)) + 1
          #expect(
            taps.clamped(to: 0...999).allSatisfy(entry.rows.contains),
            "face \(entry.face) tile \(entry.x),\(entry.y): row \(row) outside \(entry.rows)")
        }
      }
    }
    // The poles' tiles reach the first and last rows.
    #expect(plan.entries.contains { $0.face == 4 && $0.rows.lowerBound == 0 })
    #expect(plan.entries.contains { $0.face == 5 && $0.rows.upperBound == 1000 })
  }

  @Test func boxReducerAveragesEachBlockWithPartialEdges() {
    var image = RGBAImage(width: 7, height: 5)
    for y in 0..<5 {
      for x in 0..<7 { image[x, y] = RGBAImage.pack(r: UInt8(10 * x), g: UInt8(20 * y), b: UInt8(x * y)) }
    }
    var reducer = BoxReducer(sourceWidth: 7, sourceHeight: 5, factor: 3)
    image.pixels.withUnsafeBufferPointer { p in
      for y in 0..<5 { reducer.add(row: p.baseAddress! + y * 7) }
    }
    #expect(reducer.image.width == 3 && reducer.image.height == 2)
    for by in 0..<2 {
      for bx in 0..<3 {
        let xs = (3 * bx)..<min(3 * bx + 3, 7), ys = (3 * by)..<min(3 * by + 3, 5)
        let n = xs.count * ys.count
        var r = 0, g = 0, b = 0
        for y in ys {
          for x in xs {
            let c = RGBAImage.unpack(image[x, y])
            r += Int(c.r)
            g += Int(c.g)
            b += Int(c.b)
          }
        }
        let c = RGBAImage.unpack(reducer.image[bx, by])
        #expect([Int(c.r), Int(c.g), Int(c.b)] == [(r + n / 2) / n, (g + n / 2) / n, (b + n / 2) / n], "block \(bx),\(by)")
      }
    }
  }

  @Test func anOddTileSizeMakesNoPyramid() throws {
    let layout = try #require(MultiresLayout(cubeResolution: 300, tileResolution: 75, maxLevel: 4))
    #expect(TilePyramid(layout: layout) == nil)
  }
}
