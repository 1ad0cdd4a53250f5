import CoreMath

/// What a 360° video says about its frames: the projection, the stereo layout, the pose and
/// the crop, from Spherical Video V2 boxes (`st3d`, `sv3d`), V1 XML (`GSpherical`), or
/// assumed from the frame's shape. `source` says which, in words `pano info` prints.
///
/// Angles are radians in our convention: yaw turns right, pitch looks up, roll tilts
/// clockwise. The V2 pose is "a rotation applied to the projection" (yaw counter-clockwise
/// about up, then pitch counter-clockwise about right, then roll clockwise about forward):
/// content at the projection's centre shows at world yaw −poseYaw, pitch +posePitch. V1's
/// initial view heading is the other way round: where the viewer should start looking.
public struct SphericalVideo: Hashable, Sendable {
  /// How the video maps directions to the frame.
  public enum Projection: String, Hashable, Sendable, CaseIterable {
    /// Longitude linear in x, latitude linear in y: the one drawn today.
    case equirectangular
    /// V2's cubemap (3 × 2 faces) and mesh projections: recognised, not drawn yet.
    case cubemap, mesh
    /// Anything else a file names (V1's `ProjectionType`).
    case other
  }

  /// How two eyes share a frame; we show the left eye (the top, or the left half).
  public enum Stereo: String, Hashable, Sendable, CaseIterable {
    /// One picture for both eyes.
    case mono
    /// The left eye above the right.
    case topBottom = "top-bottom"
    /// The left eye left of the right.
    case leftRight = "left-right"
  }

  /// How the frame maps directions (`equirectangular` unless the file says otherwise).
  public var projection: Projection = .equirectangular
  /// How two eyes share a frame (`mono` unless the file says otherwise).
  public var stereo: Stereo = .mono
  /// V2's pose (see the type's doc).
  public var pose = ViewAngles()
  /// Where a viewer should start looking (V1's initial view; zero otherwise).
  public var initialView = ViewAngles()
  /// V2's projection bounds as fractions of the full projection cropped from each edge
  /// of one eye's picture (0 for an uncropped frame).
  public var cropTop = 0.0, cropBottom = 0.0, cropLeft = 0.0, cropRight = 0.0
  /// V1's GPano-style crop in pixels of the full panorama (nil when the XML gives none).
  public var v1Crop: GPano?
  /// Where this came from: "Spherical Video V2 (sv3d)", "Spherical Video V1 (GSpherical
  /// XML)", or why it was assumed.
  public var source: String

  /// Metadata with the defaults (mono, equirectangular, uncropped, no pose), from `source` (see ``source``).
  public init(source: String) { self.source = source }

  /// The part of a `width`×`height` frame one eye sees (the left eye: the top of a
  /// top-bottom frame, the left of a left-right one), in frame pixels.
  public func eye(width: Int, height: Int) -> (x: Int, y: Int, width: Int, height: Int) {
    switch stereo {
    case .mono: (0, 0, width, height)
    case .topBottom: (0, 0, width, height / 2)
    case .leftRight: (0, 0, width / 2, height)
    }
  }

  /// The geometry of one eye's picture (`eye(width:height:)`'s size): the crop bounds (V2) or
  /// the V1 GPano fields place it in the sphere; out-of-range bounds are ignored.
  public func geometry(eyeWidth: Int, eyeHeight: Int) -> PanoramaGeometry {
    if let v1Crop { return v1Crop.geometry(width: eyeWidth, height: eyeHeight) }
    let (l, r, t, b) = (cropLeft, cropRight, cropTop, cropBottom)
    guard [l, r, t, b].allSatisfy({ $0.isFinite && $0 >= 0 }), l + r < 1, t + b < 1, l + r + t + b > 0 else {
      return PanoramaGeometry(width: eyeWidth, height: eyeHeight)
    }
    let fullWidth = Double(eyeWidth) / (1 - l - r), fullHeight = Double(eyeHeight) / (1 - t - b)
    return PanoramaGeometry(
      projection: .equirectangular, fullWidth: fullWidth, fullHeight: fullHeight, croppedLeft: l * fullWidth,
      croppedTop: t * fullHeight, croppedWidth: Double(eyeWidth), croppedHeight: Double(eyeHeight))
  }

  /// No metadata: what a frame of this shape is taken to be, and why. 2:1 is a full
  /// equirectangular sphere; 1:1 is that too, stacked top-bottom (a stereo pair);
  /// anything else is still drawn as equirectangular, and `source` says it is a guess.
  public static func assumed(width: Int, height: Int) -> SphericalVideo {
    let aspect = Double(width) / Double(max(height, 1))
    if abs(aspect - 2) <= 0.02 {
      return SphericalVideo(source: "no spherical metadata; 2:1, so assumed a full 360° equirectangular frame")
    }
    if abs(aspect - 1) <= 0.01 {
      var v = SphericalVideo(
        source: "no spherical metadata; 1:1, so assumed top-bottom stereo equirectangular (showing the top eye)")
      v.stereo = .topBottom
      return v
    }
    return SphericalVideo(
      source: "no spherical metadata and not 2:1 (\(width)×\(height)); drawn as equirectangular anyway: check the clip")
  }

  /// The rotation from a view's direction to the projection's (x right, y up, z forward),
  /// column-major: the view's pitch and roll, its yaw, then the pose undone.
  func projectionMatrix(view: ViewAngles) -> [Double] {
    let camera = PanoramaRenderer.Camera(width: 2, height: 2, pitch: view.pitch, roll: view.roll, hfov: 1)
    let m = camera.m
    var world = [m.0, m.1, m.2, m.3, m.4, m.5, m.6, m.7, m.8]
    // Our yaw turns right: about y, z towards x.
    world = Self.rotateY(world, view.yaw)
    // Undo the pose. Its rotations are intrinsic (yaw about up, then pitch about the
    // turned right axis, then roll about the turned forward one), so undoing them in the
    // world's axes goes yaw, pitch, roll.
    world = Self.rotateY(world, pose.yaw)
    world = Self.rotateX(world, pose.pitch)
    world = Self.rotateZ(world, pose.roll)
    return world
  }

  /// `m` (three columns) turned about y by `a`: z towards x (to the right) for positive `a`.
  static func rotateY(_ m: [Double], _ a: Double) -> [Double] {
    let (s, c) = Elementary.sinCos(a)
    var out = m
    for k in 0..<3 {
      let x = m[3 * k], z = m[3 * k + 2]
      out[3 * k] = c * x + s * z
      out[3 * k + 2] = -s * x + c * z
    }
    return out
  }

  /// `m` turned about x by `a`: z towards −y (down) for positive `a`.
  static func rotateX(_ m: [Double], _ a: Double) -> [Double] {
    let (s, c) = Elementary.sinCos(a)
    var out = m
    for k in 0..<3 {
      let y = m[3 * k + 1], z = m[3 * k + 2]
      out[3 * k + 1] = c * y - s * z
      out[3 * k + 2] = s * y + c * z
    }
    return out
  }

  /// `m` turned about z by `a`: x towards y for positive `a`.
  static func rotateZ(_ m: [Double], _ a: Double) -> [Double] {
    let (s, c) = Elementary.sinCos(a)
    var out = m
    for k in 0..<3 {
      let x = m[3 * k], y = m[3 * k + 1]
      out[3 * k] = c * x - s * y
      out[3 * k + 1] = s * x + c * y
    }
    return out
  }
}

extension SphericalVideo {
  /// Why a V1 XML packet was refused.
  public struct V1Error: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong with the packet.
    public var message: String
    /// The message itself.
    public var description: String { message }
  }

  /// Reads Spherical Video V1 metadata (the `GSpherical` XML of an MP4's spherical `uuid`
  /// box, or a Matroska tag). Elements are read by name wherever they are (namespaces are
  /// not resolved: every writer uses the `GSpherical:` prefix). `Spherical` must be `true`;
  /// numbers must be finite and in range; unknown elements are ignored.
  /// - Complexity: O(n · elements) in the packet's length; packets over 64 KB are refused.
  public static func parseV1(_ bytes: [UInt8]) throws(V1Error) -> SphericalVideo {
    guard bytes.count <= 65_536 else { throw V1Error(message: "GSpherical XML of \(bytes.count) bytes, over 64 KB") }
    let fields = elements(bytes)
    guard let spherical = fields["Spherical"] else {
      throw V1Error(message: "GSpherical XML without a <GSpherical:Spherical> element")
    }
    guard spherical.asciiLowercased == "true" else {
      throw V1Error(message: "<GSpherical:Spherical> is \"\(spherical)\", not true")
    }
    var video = SphericalVideo(source: "Spherical Video V1 (GSpherical XML)")
    if let p = fields["ProjectionType"] {
      video.projection = p.asciiLowercased == "equirectangular" ? .equirectangular : .other
    }
    if let s = fields["StereoMode"] {
      switch s.asciiLowercased {
      case "mono": video.stereo = .mono
      case "top-bottom": video.stereo = .topBottom
      case "left-right": video.stereo = .leftRight
      default: throw V1Error(message: "<GSpherical:StereoMode> \"\(s)\": expected mono, top-bottom or left-right")
      }
    }
    func degrees(_ name: String, _ range: ClosedRange<Double>) throws(V1Error) -> Double {
      guard let text = fields[name] else { return 0 }
      guard let value = DecimalText.parse(Substring(text)), value.isFinite, range.contains(value) else {
        throw V1Error(
          message:
            "<GSpherical:\(name)> \"\(text)\": expected degrees from \(JSONlessNumber(range.lowerBound)) to \(JSONlessNumber(range.upperBound))"
        )
      }
      return Angle(degrees: value).radians
    }
    video.initialView = ViewAngles(
      yaw: try degrees("InitialViewHeadingDegrees", -360...360), pitch: try degrees("InitialViewPitchDegrees", -90...90),
      roll: try degrees("InitialViewRollDegrees", -180...180))
    func pixels(_ name: String) throws(V1Error) -> Int? {
      guard let text = fields[name] else { return nil }
      guard let value = Int(text), value >= 0, value <= 1 << 24 else {
        throw V1Error(message: "<GSpherical:\(name)> \"\(text)\": expected a pixel count from 0 to 16777216")
      }
      return value
    }
    var crop = GPano(xmp: "GPano:ProjectionType=\"equirectangular\"")!
    crop.fullPanoWidth = try pixels("FullPanoWidthPixels")
    crop.fullPanoHeight = try pixels("FullPanoHeightPixels")
    crop.croppedWidth = try pixels("CroppedAreaImageWidthPixels")
    crop.croppedHeight = try pixels("CroppedAreaImageHeightPixels")
    crop.croppedLeft = try pixels("CroppedAreaLeftPixels")
    crop.croppedTop = try pixels("CroppedAreaTopPixels")
    if crop.fullPanoWidth != nil { video.v1Crop = crop }
    return video
  }

  /// The text of every `<GSpherical:NAME>text</GSpherical:NAME>` element, by NAME (the first
  /// one wins), trimmed of spaces.
  static func elements(_ bytes: [UInt8]) -> [String: String] {
    let open = Array("<GSpherical:".utf8)
    var fields: [String: String] = [:]
    var i = 0
    while i + open.count <= bytes.count {
      guard bytes[i] == UInt8(ascii: "<"), bytes[i..<(i + open.count)].elementsEqual(open) else {
        i += 1
        continue
      }
      var j = i + open.count
      let nameStart = j
      while j < bytes.count, bytes[j] != UInt8(ascii: ">"), bytes[j] != UInt8(ascii: " "), bytes[j] != UInt8(ascii: "/") {
        j += 1
      }
      let name = String(decoding: bytes[nameStart..<j], as: UTF8.self)
      // Skip attributes to the tag's end; a self-closing tag has no text.
      while j < bytes.count, bytes[j] != UInt8(ascii: ">") { j += 1 }
      guard j < bytes.count, bytes[j - 1] != UInt8(ascii: "/") else {
        i = j
        continue
      }
      let textStart = j + 1
      var k = textStart
      while k < bytes.count, bytes[k] != UInt8(ascii: "<") { k += 1 }
      if !name.isEmpty, fields[name] == nil {
        fields[name] = String(decoding: bytes[textStart..<k], as: UTF8.self).trimmingSpaces
      }
      i = k
    }
    return fields
  }
}

/// A number as a user reads it: no ".0" on whole numbers, at most three decimals (without
/// the C library's printing, which Embedded Swift lacks).
func JSONlessNumber(_ x: Double) -> String {
  guard x.isFinite, abs(x) < 1e12 else { return x.isNaN ? "nan" : x < 0 ? "-huge" : "huge" }
  let thousandths = Int((abs(x) * 1000).rounded())
  var text = String(thousandths / 1000)
  var fraction = thousandths % 1000
  if fraction > 0 {
    var digits = ""
    for _ in 0..<3 {
      digits += String(fraction / 100)
      fraction = fraction % 100 * 10
    }
    while digits.hasSuffix("0") { digits.removeLast() }
    text += "." + digits
  }
  return (x < 0 && thousandths > 0 ? "-" : "") + text
}

extension String {
  /// ASCII letters lowered (metadata keywords are ASCII; no Unicode tables needed).
  var asciiLowercased: String {
    String(decoding: utf8.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }, as: UTF8.self)
  }
}
