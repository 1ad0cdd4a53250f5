import CoreMath

/// The two polar caps of a full-sphere equirectangular panorama, resampled once into square
/// faces, so views near a pole read compact rows.
///
/// Towards a pole an equirectangular row spans ever fewer degrees, so a view there steps
/// across many source columns per output pixel: each sample lands on a new cache line, and
/// looking 80° up cost 2–3× a level view. On a face, directions near the pole are as evenly
/// spaced as at the horizon, and the pole is an ordinary point.
///
/// Each face is an azimuthal equidistant map of a cap, the renderer's own fisheye view
/// straight up (north) or down (south): a face pixel is a source row high (`focal` is the
/// source's pixels per radian down its height) and, out to latitude ±45° where the renderer
/// stops reading the faces, at most 1.11× as wide. So faces are read about as densely as
/// the source at the horizon. (Gnomonic faces, as a cube map's, were tried first: they are
/// twice as fine radially at latitude 45° as at the pole, so a little planet read them
/// sparsely there and ran slower than from the source.) Past latitude 45° a yaw would turn a
/// direction out of the face, so blocks there read the equirectangular source.
///
/// Face coordinates: pixel centres at integers, `centre` = (side − 1) / 2. A direction at
/// angle θ from the pole and unit horizontal part (hx, hz) lands at `centre + focal · θ · hx`
/// across and, on the north face, `centre + focal · θ · hz` down (`centre − …` on the south).
///
/// Memory: two faces of (source height / 2)² pixels plus their mip levels (a third more):
/// 8192 × 4096 → 2 × 2 096² × 4 B × 4/3 = 47 MB beside the source's 134 MB; 10800 × 5400 →
/// 80 MB beside 233.
public struct PolarCaps: Sendable {
  /// Each square face's side, in pixels (about half the source's height).
  public let side: Int
  /// Face pixels per radian of angle from the pole (`focal · θ` in the mapping above).
  public let focal: Double
  /// Each face at full size followed by its mip levels (`levels[0]` is the face).
  public let north: [UInt32]
  /// The south face at full size followed by its mip levels, laid out as `north`.
  public let south: [UInt32]
  /// Where each level lies in `north` and `south`, and its size; `levels[0]` is the full face.
  public let levels: [MipLevels.Level]

  var centre: Double { Double(side - 1) / 2 }

  /// The caps of `renderer`'s source, or nil when it is not a full-sphere equirectangular
  /// panorama (a partial one has no pole to speed up, and a cylinder cannot reach one).
  init?<E: RowExecutor>(renderer: PanoramaRenderer, executor: E) {
    let g = renderer.geometry
    guard g.projection == .equirectangular, g.wraps, g.fullHeight >= 2, g.croppedHeight >= g.fullHeight - 1,
      abs(g.croppedTop) <= 0.5, renderer.source.height >= 16
    else { return nil }
    // At most the source's height (the crop is the whole sphere): geometries that claim
    // otherwise (any doubles reach here) never size a face past it.
    focal = Double(renderer.source.height) * min(g.fullHeight / g.croppedHeight, 1) / Elementary.pi
    // Half a side: the circle 45° from the pole plus room for the bilinear neighbours and a
    // block's bulge. A side of 16 × an odd number of pixels makes a row an odd number of
    // 64-byte cache lines, so the rows a view crosses fall in different L1 sets: with a
    // multiple of 32 (rows 172 lines apart at 10800 × 5400, so every 16th row in the same
    // sets) a view crossing the face diagonally took 1.9× a level one, now ~1.2×. The mip
    // levels then halve four times.
    let side = ((Int((focal * Elementary.pi / 4 + 12).rounded(.up)) * 2 + 15) / 16 | 1) * 16
    self.side = side
    // A plain renderer of the same source (no mip levels, no caps, the Swift loop), so the
    // faces do not depend on what else was built first.
    var maker = PanoramaRenderer(validSource: renderer.source, geometry: g)
    maker.gridSpacing = GridSpacing(columns: 16, rows: 16)  // a one-off: closer than the default
    maker.buildsMipLevelsWhenMinified = false
    // The fisheye (equidistant) field whose focal length is `focal` at this side.
    let fov = Double(side) / focal
    var faces: [[UInt32]] = []
    var levels: [MipLevels.Level] = []
    for pitch in [Elementary.halfPi, -Elementary.halfPi] {
      var face = RGBAImage(width: side, height: side)
      maker.renderPerspective(view: ViewAngles(pitch: pitch), hfov: fov, lens: .fisheye, into: &face, executor: executor)
      let mips = MipLevels(source: face, executor: executor)
      levels =
        [MipLevels.Level(offset: 0, width: side, height: side)]
        + mips.levels.map { MipLevels.Level(offset: $0.offset + side * side, width: $0.width, height: $0.height) }
      faces.append(face.pixels + mips.pixels)
    }
    north = faces[0]
    south = faces[1]
    self.levels = levels
  }

  /// Where direction `d` lands on a face at yaw 0: side 1 (north) or 2 (south) and face
  /// coordinates, or side 0 when it is more than 45° from both poles.
  func position(_ d: Vector3) -> (side: UInt8, a: Double, b: Double) {
    let horizontal = (d.x * d.x + d.z * d.z).squareRoot(), up = abs(d.y)
    guard up > 0, horizontal <= up, d.x.isFinite, d.y.isFinite, d.z.isFinite else { return (0, 0, 0) }
    // θ / horizontal, with its limit 1 / |y| at the pole.
    let scale = horizontal > 0 ? focal * Elementary.atan2(horizontal, up) / horizontal : focal / up
    let a = centre + scale * d.x
    return d.y > 0 ? (1, a, centre + scale * d.z) : (2, a, centre - scale * d.z)
  }

  /// Face `side` (1 north, 2 south) at level `k` (0: full size) as an image, for
  /// inspection and tests.
  public func image(side which: Int, level k: Int = 0) -> RGBAImage {
    let level = levels[k]
    let pixels = which == 1 ? north : south
    return RGBAImage(
      width: level.width, height: level.height,
      validPixels: Array(pixels[level.offset..<level.offset + level.width * level.height]))
  }

  /// Bytes the faces and their mip levels hold.
  public var byteCount: Int { (north.count + south.count) * 4 }
}
