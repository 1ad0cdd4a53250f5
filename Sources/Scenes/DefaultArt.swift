import CoreMath
import Panorama
import Stage

/// The app's default images, drawn by the project (no download): a photo cut from the
/// sample panorama for Locations, and the shortcut icons' tiles (their letters are text,
/// drawn with the real font over the tile).
public enum DefaultArt {
  /// A landscape photo: the sample panorama's sunny north-east, rendered as a square view.
  public static func photo(size: Int) -> RGBAImage {
    var image = RGBAImage(width: size, height: size)
    // 1024 is inside SamplePanorama's range, so neither call can throw.
    guard let source = try? SamplePanorama.make(width: 1024),
      var renderer = try? PanoramaRenderer(source: source, geometry: PanoramaGeometry(width: 1024, height: 512))
    else { return image }
    renderer.renderPerspective(
      view: ViewAngles(yaw: Angle(degrees: 35).radians, pitch: Angle(degrees: 8).radians), hfov: Angle(degrees: 70).radians,
      into: &image, executor: InlineRows())
    frame(&image, RGBAImage.pack(r: 255, g: 255, b: 255), width: max(2, size / 40))
    return image
  }

  /// A rounded-corner tile of `color`, with a one-pixel soft edge.
  public static func tile(size: Int, color: RGBA) -> RGBAImage {
    var image = RGBAImage(width: size, height: size, fill: 0)
    let radius = Double(size) * 0.22
    let fill = RGBAImage.pack(r: color.r, g: color.g, b: color.b)
    for y in 0..<size {
      for x in 0..<size {
        let dx = max(0, abs(Double(x) + 0.5 - Double(size) / 2) - (Double(size) / 2 - radius))
        let dy = max(0, abs(Double(y) + 0.5 - Double(size) / 2) - (Double(size) / 2 - radius))
        let d = (dx * dx + dy * dy).squareRoot() - radius
        if d < 0.5 {
          let alpha = d < -0.5 ? 255 : UInt8((0.5 - d) * 255)
          image[x, y] = (fill & 0x00FF_FFFF) | UInt32(alpha) << 24
        }
      }
    }
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
