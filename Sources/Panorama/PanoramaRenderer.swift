import CoreMath

/// The size of the perspective renderer's blocks, in output pixels. The mapping is
/// evaluated exactly at each block's corners, edge middles and centre, and interpolated
/// biquadratically in between.
///
/// Wider than tall by default: each row of a block costs a fixed setup that a longer row
/// amortises. At 64 × 32 the interpolation is 0.008 source pixels off for a 90° view of an
/// 8192-wide panorama, 0.3 at hfov 150°: 2–3× closer than bilinear 16 × 16 blocks, with a
/// quarter of the exact evaluations and 10 % fewer instructions per pixel.
public struct GridSpacing: Hashable, Sendable {
  /// Block width, in output pixels.
  public var columns: Int
  /// Block height, in output pixels.
  public var rows: Int

  /// Blocks of `columns`×`rows` output pixels.
  public init(columns: Int, rows: Int) {
    self.columns = columns
    self.rows = rows
  }
}

/// Draws views of a panorama on the CPU with bilinear filtering.
///
/// Perspective views map each output pixel to a direction and the direction to a source
/// pixel. That mapping is evaluated exactly on a grid of `gridSpacing` blocks (3 × 3 points
/// each) and interpolated biquadratically in between, so per-pixel work is a few integer
/// adds and the bilinear fetch: no trigonometry per pixel. The grid is computed for yaw 0
/// and cached: while only yaw changes (a turning user), a frame is a horizontal shift of the
/// cached grid. With `buildPolarCaps`, blocks within 45° of a pole read a face resampled
/// from the source once (``PolarCaps``), which keeps those views as fast as level ones.
/// Without, blocks around a pole, where the mapping spans too many longitudes, are cut into
/// 8 × 8 pieces with their own exact points, and the piece holding the pole is evaluated
/// per pixel. Any angles and any geometry draw without trapping (positions far
/// outside the source draw as background).
public struct PanoramaRenderer: Sendable {
  /// The panorama image the views are drawn from.
  public let source: RGBAImage
  /// Where `source` sits in the full sphere and how it is projected.
  public let geometry: PanoramaGeometry
  /// Pixels between exact evaluations of the perspective mapping, across and down.
  public var gridSpacing = defaultGridSpacing
  /// 64 × 32 output pixels: see ``GridSpacing`` for why.
  public static let defaultGridSpacing = GridSpacing(columns: 64, rows: 32)
  /// Colour outside a partial panorama.
  public var background: UInt32 = RGBAImage.pack(r: 0, g: 0, b: 0)
  /// Halved copies of the source that perspective views read where they step two or more
  /// source pixels per output pixel (near the poles, wide views): faster and without
  /// aliasing there. None until `buildMipLevels`, or the first perspective view that needs
  /// them (``buildsMipLevelsWhenMinified``); they add up to a third of the source.
  public private(set) var mipLevels = MipLevels()
  /// Whether `renderPerspective` builds ``mipLevels`` (once; they are kept) the first time a
  /// view steps more than 2^0.75 source pixels per output pixel somewhere, where a level
  /// starts to count: a minified view is then antialiased, as the levels of a tile pyramid
  /// draw it, without the caller asking. A view that minifies nowhere never pays for them
  /// (memory stays the source and the frames) and draws exactly as before. Off, only
  /// `buildMipLevels` builds them: for a host that defers them past its first frame, or a
  /// caller that wants the plain bilinear samples.
  public var buildsMipLevelsWhenMinified = true
  /// The polar caps resampled into square faces, which views near a pole read instead of
  /// the source's stretched rows (much faster there). None until `buildPolarCaps`; see
  /// ``PolarCaps`` for what they cost.
  public private(set) var polarCaps: PolarCaps?
  /// The inner loop to run instead of the portable Swift one (`nil`: Swift), chosen by the
  /// host from the CPU's features.
  public var groupKernel: GroupKernel?

  /// Builds the mip levels (see `mipLevels`).
  public mutating func buildMipLevels<E: RowExecutor>(executor: E) {
    mipLevels = MipLevels(source: source, executor: executor)
  }

  /// Builds the polar caps (see `polarCaps`); does nothing unless the source is a full-sphere
  /// equirectangular panorama.
  public mutating func buildPolarCaps<E: RowExecutor>(executor: E) {
    polarCaps = PolarCaps(renderer: self, executor: executor)
  }

  struct GridKey: Equatable {
    var width: Int, height: Int, pitch: Double, roll: Double, hfov: Double, lens: Lens, spacing: GridSpacing
    var caps: Bool
    var window: ViewWindow?
  }
  var gridKey: GridKey?
  var columns: [Int] = []
  var rows: [Int] = []
  /// Source-pixel coordinates at yaw 0 of each grid point, x unwrapped.
  var gridU: [Double] = []
  var gridV: [Double] = []
  /// Which polar face each grid point lies on at yaw 0 (0: none, 1: north, 2: south) and
  /// where; empty without `polarCaps`.
  var gridCapSide: [UInt8] = []
  var gridCapA: [Double] = []
  var gridCapB: [Double] = []
  /// Whether a block of the grid reads a mip level once they exist (see `minifies`).
  var gridMinifies = false

  /// A renderer of `source`, which covers `geometry`'s cropped area.
  ///
  /// - Throws: ``ImageError`` naming `source` when the image has no pixels (0 wide or 0 high).
  public init(source: RGBAImage, geometry: PanoramaGeometry) throws(ImageError) {
    guard source.width > 0, source.height > 0 else {
      throw ImageError(
        field: "source", message: "the image is \(source.width)×\(source.height); a panorama needs at least 1×1 pixels")
    }
    self.init(validSource: source, geometry: geometry)
  }

  /// A renderer of a source the caller knows is not empty (a band of one already checked).
  init(validSource source: RGBAImage, geometry: PanoramaGeometry) {
    assert(source.width > 0 && source.height > 0, "empty panorama")
    self.source = source
    self.geometry = geometry
  }

  var scaleX: Double { Double(source.width) / geometry.croppedWidth }
  var scaleY: Double { Double(source.height) / geometry.croppedHeight }
  /// The wrap period in source pixels.
  var period: Double { geometry.fullWidth * scaleX }
}
