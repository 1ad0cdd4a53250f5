import Panorama

/// Where each number a web host reads every frame sits in the viewer module's frame buffer:
/// one block of `Double`s the module allocates once and exports (`viewer_frame`), which the
/// host reads through a `Float64Array`. Numbers, not JSON text, so a frame formats, parses
/// and allocates nothing.
///
/// The one definition of the layout. web/viewer/ViewerWeb.swift writes by these slots;
/// web/viewer/viewer-frame.js reads by the same names, and `ViewerFrameTests` holds its
/// copy of this table (names, slots, and the lens, mode and source names by index) to this one.
///
/// - Angles are degrees, yaw within ±180°, as Pannellum's getters answer them.
/// - A flag is 1 or 0; a name (lens, mode, source) is its index in ``lenses``, ``modes`` and
///   ``sources``.
/// - The key slots change exactly when a frame of that size would (`PanoramaFrameKey`).
public enum ViewerFrameSlot: Int, CaseIterable, Sendable {
  // `viewer_view`: the view and what the viewer shows.
  case yaw = 0, pitch, roll, hfov, lens, mode, source, autoRotating, levelsHorizon, hasPanorama
  // `viewer_view`: the frame key.
  case keyYaw, keyPitch, keyRoll, keyHfov, keyLens, keyMode, keyWidth, keyHeight, keyGeneration
  // `viewer_gpu_view`: the WebGL2 shader's numbers (`CameraParameters`, `StripCamera`); `turn`
  // is radians within a turn.
  case gpuLens, gpuStrip, focal, turn, stripWidth, stripOffset
  /// Nine slots: the camera's axes, column-major (`CameraParameters.matrix`).
  case matrix
  /// `viewer_placements`: how many hotspots follow.
  case placementCount = 34
  /// From here, x and y in viewport points per hotspot of the shown scene; NaN, NaN: hidden.
  case placements

  /// Slots before the placements.
  public static let fixedCount = placements.rawValue
  /// Slots for `hotSpots` hotspots' placements.
  public static func count(hotSpots: Int) -> Int { fixedCount + 2 * hotSpots }

  /// The lens names by the index the `lens` slots hold.
  public static let lenses: [Lens] = Lens.allCases
  /// The mode names by the index the `mode` slots hold.
  public static let modes: [ViewMode] = ViewMode.allCases
  /// The motion source names by the index the `source` slot holds.
  public static let sources: [MotionSource] = MotionSource.allCases
}

/// The answer numbers `viewer_open`, `viewer_open_video` and `viewer_open_tiles` leave at
/// `viewer_answer_numbers` (web/viewer/viewer-frame.js `GEOMETRY` reads them): the opened
/// image's `PanoramaGeometry` in its pixels, and for a video the eye the renderers sample,
/// x, y, width, height in frame pixels (NaN for a still or tiles).
public enum ViewerGeometrySlot: Int, CaseIterable, Sendable {
  case projection = 0, fullWidth, fullHeight, croppedLeft, croppedTop, croppedWidth, croppedHeight, wraps
  case eyeX, eyeY, eyeWidth, eyeHeight

  /// How many numbers the answer holds.
  public static let count = eyeHeight.rawValue + 1
  /// The projections by the index the `projection` slot holds (their `rawValue`s in the JS).
  public static let projections: [SourceProjection] = SourceProjection.allCases
}

/// The answer numbers `viewer_spherical_begin` and `viewer_spherical_feed` leave (a step of
/// `MP4SphericalReader`; web/viewer/viewer-frame.js `SPHERICAL` reads them): `step` 0 asks
/// for `count` bytes at `offset`; 1 found a video's metadata (the rest: its stereo and
/// projection by index, its pose in degrees, its crop); 2 found none. Their text answer is
/// the codec (its first `codecLength` UTF-8 bytes, none when `codecLength` is NaN), then
/// the metadata's source or why none was read.
public enum ViewerSphericalSlot: Int, CaseIterable, Sendable {
  case step = 0, offset, count, codecLength, stereo, projection, yaw, pitch, roll
  case cropTop, cropBottom, cropLeft, cropRight

  /// How many numbers the answer holds.
  public static let slotCount = cropRight.rawValue + 1
  /// The stereo layouts by the index the `stereo` slot holds.
  public static let stereos: [SphericalVideo.Stereo] = SphericalVideo.Stereo.allCases
  /// The projections by the index the `projection` slot holds.
  public static let projections: [SphericalVideo.Projection] = SphericalVideo.Projection.allCases
}
