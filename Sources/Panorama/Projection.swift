import CoreMath

/// How a panorama image maps directions to pixels.
public enum SourceProjection: String, Hashable, Sendable, CaseIterable {
  /// Longitude linear in x over the full width, latitude linear in y (2:1 for a full sphere).
  case equirectangular = "equirect"
  /// Longitude linear in x; y proportional to tan(latitude), as a photo wrapped on a cylinder.
  case cylindrical
}

/// Where an image sits inside the full panorama it was cropped from: Google's GPano fields
/// (`FullPanoWidthPixels`, `CroppedAreaLeftPixels`, …). A full 360°×180° equirectangular
/// image is its own full panorama.
public struct PanoramaGeometry: Hashable, Sendable {
  /// How the full panorama maps directions to pixels.
  public var projection: SourceProjection
  /// Width of the full panorama, in source pixels (`GPano:FullPanoWidthPixels`).
  public var fullWidth: Double
  /// Height of the full panorama, in source pixels (`GPano:FullPanoHeightPixels`).
  public var fullHeight: Double
  /// Pixels from the full panorama's left edge to the image's (`GPano:CroppedAreaLeftPixels`).
  public var croppedLeft: Double
  /// Pixels from the full panorama's top edge to the image's (`GPano:CroppedAreaTopPixels`).
  public var croppedTop: Double
  /// Width of the image within the full panorama, in pixels (`GPano:CroppedAreaImageWidthPixels`).
  public var croppedWidth: Double
  /// Height of the image within the full panorama, in pixels (`GPano:CroppedAreaImageHeightPixels`).
  public var croppedHeight: Double

  /// An uncropped panorama of `width`×`height` pixels.
  public init(projection: SourceProjection = .equirectangular, width: Int, height: Int) {
    self.projection = projection
    fullWidth = Double(width)
    fullHeight = projection == .equirectangular ? Double(width) / 2 : Double(height)
    croppedLeft = 0
    croppedTop = projection == .equirectangular ? (fullHeight - Double(height)) / 2 : 0
    croppedWidth = Double(width)
    croppedHeight = Double(height)
  }

  /// A crop inside a larger panorama, in pixels of the full panorama.
  public init(
    projection: SourceProjection, fullWidth: Double, fullHeight: Double, croppedLeft: Double, croppedTop: Double,
    croppedWidth: Double, croppedHeight: Double
  ) {
    self.projection = projection
    self.fullWidth = fullWidth
    self.fullHeight = fullHeight
    self.croppedLeft = croppedLeft
    self.croppedTop = croppedTop
    self.croppedWidth = croppedWidth
    self.croppedHeight = croppedHeight
  }

  /// Horizontal field of view the image covers, radians (2π for a full panorama).
  public var horizontalFOV: Double { Elementary.twoPi * croppedWidth / fullWidth }

  /// Vertical field of view, radians.
  public var verticalFOV: Double {
    switch projection {
    case .equirectangular:
      return Elementary.pi * croppedHeight / fullHeight
    case .cylindrical:
      let radius = fullWidth / Elementary.twoPi
      let top = (fullHeight / 2 - croppedTop) / radius
      let bottom = (croppedTop + croppedHeight - fullHeight / 2) / radius
      return Elementary.atan(top) + Elementary.atan(bottom)
    }
  }

  /// Whether the image wraps all the way round, so x wraps.
  public var wraps: Bool { croppedWidth >= fullWidth - 0.5 }

  /// Position in full-panorama pixels (continuous, x not wrapped) of a direction given as
  /// longitude (radians, 0 at the centre column, positive right) and the direction's
  /// vertical component over its length (sin latitude) and horizontal length.
  func fullPosition(longitude: Double, sinLatitude: Double, horizontal: Double) -> (x: Double, y: Double) {
    let x = (longitude / Elementary.twoPi + 0.5) * fullWidth
    switch projection {
    case .equirectangular:
      let lat = Elementary.atan2(sinLatitude, horizontal)
      return (x, (0.5 - lat / Elementary.pi) * fullHeight)
    case .cylindrical:
      let radius = fullWidth / Elementary.twoPi
      let t = horizontal > 1e-9 ? sinLatitude / horizontal : (sinLatitude >= 0 ? 1e9 : -1e9)
      return (x, fullHeight / 2 - t * radius)
    }
  }
}

extension PanoramaGeometry {
  /// What an image that carries no GPano fields most likely covers, and why, in words a
  /// user reads (`pano info`'s `coverage`).
  ///
  /// - 2:1 (within 1 %): a full 360° × 180° equirectangular panorama.
  /// - Wider than 2:1: 360° around, as tall as its square pixels make it, centred on the
  ///   horizon (a band; a cylinder with `.cylindrical`).
  /// - Narrower: a photograph. Its longer side is assumed to cover 70°, the field of a
  ///   26 mm-equivalent phone camera, with square pixels, centred straight ahead. Treating a
  ///   4:3 photo as 360° around would show a seam and a pinched pole.
  public static func assumed(
    width: Int, height: Int, projection: SourceProjection = .equirectangular
  ) -> (geometry: PanoramaGeometry, reason: String) {
    let w = Double(max(width, 1)), h = Double(max(height, 1))
    let aspect = w / h
    if abs(aspect - 2) <= 0.02 || projection == .cylindrical || aspect > 2 {
      let geometry = PanoramaGeometry(projection: projection, width: width, height: height)
      let reason =
        abs(aspect - 2) <= 0.02
        ? "2:1 with no GPano metadata: a full 360° panorama"
        : projection == .cylindrical
          ? "cylindrical with no GPano metadata: 360° around"
          : "wider than 2:1 with no GPano metadata: 360° around, centred on the horizon"
      return (geometry, reason)
    }
    let photoField = 70.0
    let pixelsPerDegree = max(w, h) / photoField
    let fullWidth = 360 * pixelsPerDegree
    let fullHeight = fullWidth / 2
    let geometry = PanoramaGeometry(
      projection: .equirectangular, fullWidth: fullWidth, fullHeight: fullHeight, croppedLeft: (fullWidth - w) / 2,
      croppedTop: (fullHeight - h) / 2, croppedWidth: w, croppedHeight: h)
    return (geometry, "narrower than 2:1 with no GPano metadata: a photo, its longer side assumed to span 70°")
  }
}
