import CoreMath
import Panorama

/// The app's default images, drawn by the project (no download): a photo cut from the
/// sample panorama for Locations, and four shortcut icons.
enum Assets {
  /// A landscape photo: the sample panorama's sunny north-east, rendered as a square view.
  static func photo(size: Int) -> RGBAImage {
    let source = SamplePanorama.make(width: 1024)
    var renderer = PanoramaRenderer(source: source, geometry: PanoramaGeometry(width: 1024, height: 512))
    var image = RGBAImage(width: size, height: size)
    renderer.renderPerspective(
      view: ViewAngles(yaw: Angle(degrees: 35).radians, pitch: Angle(degrees: 8).radians), hfov: Angle(degrees: 70).radians,
      into: &image, executor: InlineRows())
    frame(&image, RGBAImage.pack(r: 255, g: 255, b: 255), width: max(2, size / 40))
    return image
  }

  /// The shortcut icons: id, colour, letter.
  static let icons: [(id: String, color: (UInt8, UInt8, UInt8), letter: String)] = [
    ("mail", (52, 120, 246), "M"), ("camera", (90, 90, 96), "C"), ("player", (245, 64, 96), "P"), ("atlas", (60, 170, 90), "A"),
  ]

  /// A rounded-corner coloured tile with a white letter.
  static func icon(size: Int, color: (UInt8, UInt8, UInt8), letter: String) -> RGBAImage {
    var image = RGBAImage(width: size, height: size, fill: 0)
    let radius = Double(size) * 0.22
    let fill = RGBAImage.pack(r: color.0, g: color.1, b: color.2)
    for y in 0..<size {
      for x in 0..<size {
        // Distance outside the rounded rectangle, for a one-pixel soft edge.
        let dx = max(0, abs(Double(x) + 0.5 - Double(size) / 2) - (Double(size) / 2 - radius))
        let dy = max(0, abs(Double(y) + 0.5 - Double(size) / 2) - (Double(size) / 2 - radius))
        let d = (dx * dx + dy * dy).squareRoot() - radius
        if d < 0.5 {
          let alpha = d < -0.5 ? 255 : UInt8((0.5 - d) * 255)
          image[x, y] = (fill & 0x00FF_FFFF) | UInt32(alpha) << 24
        }
      }
    }
    let scale = max(1, size / 12)
    SamplePanorama.drawText(
      letter, centerX: size / 2, top: (size - 7 * scale) / 2, scale: scale, color: RGBAImage.pack(r: 255, g: 255, b: 255),
      into: &image)
    return image
  }

  static func frame(_ image: inout RGBAImage, _ color: UInt32, width: Int) {
    for y in 0..<image.height {
      for x in 0..<image.width where x < width || y < width || x >= image.width - width || y >= image.height - width {
        image[x, y] = color
      }
    }
  }
}
