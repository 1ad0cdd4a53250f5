import CoreMath

/// A panorama the project draws itself, so every command and the app have an input with no
/// download: sky, sun, mountains, a ground grid, and the compass marked on the horizon (N at
/// the centre column, E a quarter turn right, S at the seam, W a quarter turn left), with
/// degree labels every 30°. Equirectangular, 2:1.
public enum SamplePanorama {
  /// Draws the panorama at `width`×`width/2`.
  /// - Complexity: O(pixels); trigonometry is per row and per column only.
  public static func make(width: Int) -> RGBAImage {
    precondition(width >= 16, "sample panorama too small")
    let height = width / 2
    var image = RGBAImage(width: width, height: height)
    let w = Double(width), h = Double(height)
    var horizonByColumn = [Double](repeating: 0, count: width)
    var shadeByColumn = [Double](repeating: 0, count: width)
    var sunCosByColumn = [Double](repeating: 0, count: width)
    for x in 0..<width {
      let lon = (Double(x) + 0.5) / w * Elementary.twoPi - Elementary.pi
      horizonByColumn[x] =
        0.07 + 0.045 * Elementary.sin(3 * lon + 0.4) + 0.025 * Elementary.sin(7 * lon + 1.3) + 0.012 * Elementary.sin(17 * lon)
      shadeByColumn[x] = 0.75 + 0.25 * Elementary.cos(lon * 5)
      sunCosByColumn[x] = Elementary.cos(lon - Elementary.pi / 4)
    }
    // The sun stands at north-east (45°), 0.45 rad up.
    let sunLat = 0.45
    let (sinSun, cosSun) = Elementary.sinCos(sunLat)
    for y in 0..<height {
      let lat = Elementary.halfPi - (Double(y) + 0.5) / h * Elementary.pi
      let (sinLat, cosLat) = Elementary.sinCos(lat)
      for x in 0..<width {
        let lon = (Double(x) + 0.5) / w * Elementary.twoPi - Elementary.pi
        var r: Double, g: Double, b: Double
        if lat > horizonByColumn[x] {
          // Sky: deep blue overhead to pale at the horizon.
          let t = min(1, max(0, lat / 1.2))
          r = 200 - 150 * t
          g = 225 - 120 * t
          b = 250 - 60 * t
          // Sun: angular distance from its direction.
          let cosAngle = sinLat * sinSun + cosLat * cosSun * sunCosByColumn[x]
          if cosAngle > 0.9985 {
            (r, g, b) = (255, 244, 200)
          } else if cosAngle > 0.99 {
            let k = (cosAngle - 0.99) / 0.0085
            r += (255 - r) * k
            g += (240 - g) * k
            b += (200 - b) * k
          }
        } else if lat > 0 {
          let s = shadeByColumn[x]
          r = 90 * s
          g = 110 * s
          b = 130 * s
        } else {
          // Ground, with a grid: meridians every 15°, parallels every 10°.
          r = 96
          g = 140
          b = 70
          let lonDeg = (lon / Elementary.pi * 180 + 360).truncatingRemainder(dividingBy: 15)
          let latDeg = (-lat / Elementary.pi * 180).truncatingRemainder(dividingBy: 10)
          // Meridians keep a constant width on screen, up to a limit near the nadir.
          let lineWidth = min(0.25 / max(cosLat, 0.05), 1.5)
          if lonDeg < lineWidth || lonDeg > 15 - lineWidth || latDeg < 0.25 || latDeg > 9.75 {
            r = 60
            g = 90
            b = 45
          }
        }
        image.pixels[y * width + x] = RGBAImage.pack(r: UInt8(r), g: UInt8(g), b: UInt8(b))
      }
    }
    drawCompass(into: &image)
    return image
  }

  static func drawCompass(into image: inout RGBAImage) {
    let w = Double(image.width), h = Double(image.height)
    func column(_ degrees: Double) -> Double { (degrees / 360 + 0.5) * w }
    func row(_ latDegrees: Double) -> Double { (0.5 - latDegrees / 180) * h }
    let white = RGBAImage.pack(r: 255, g: 255, b: 255)
    let red = RGBAImage.pack(r: 220, g: 40, b: 40)
    // Ticks every 10° on the horizon, longer every 30°.
    for d in stride(from: -180, to: 180, by: 10) {
      let x = Int(column(Double(d)))
      let long = d % 30 == 0
      let top = Int(row(long ? 0 : -0.5)), bottom = Int(row(long ? -3 : -1.5))
      let thick = max(1, image.width / 2048)
      for y in top...bottom {
        for dx in 0..<thick where x + dx < image.width && y >= 0 && y < image.height {
          image.pixels[y * image.width + x + dx] = white
        }
      }
    }
    let letterHeight = h / 180 * 5  // 5° tall
    for (d, letter) in [(0.0, "N"), (90.0, "E"), (-90.0, "W"), (180.0, "S")] {
      let scale = max(1, Int(letterHeight / 7))
      drawText(
        letter, centerX: Int(column(d == 180 ? -180 : d)), top: Int(row(-4)), scale: scale, color: d == 0 ? red : white,
        into: &image)
      if d == 180 {  // the seam: draw S on both sides so it reads whole
        drawText(letter, centerX: Int(column(180)), top: Int(row(-4)), scale: scale, color: white, into: &image)
      }
    }
    for d in stride(from: -150, through: 150, by: 30) where d % 90 != 0 {
      let scale = max(1, Int(letterHeight / 7 / 2))
      drawText(
        String(d < 0 ? d + 360 : d), centerX: Int(column(Double(d))), top: Int(row(-4)), scale: scale, color: white, into: &image)
    }
  }

  /// 5×7 glyphs, one row per byte, bit 4 the left column.
  static let glyphs: [Character: [UInt8]] = [
    "N": [0x11, 0x19, 0x15, 0x13, 0x11, 0x11, 0x11], "E": [0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x1F],
    "S": [0x0F, 0x10, 0x10, 0x0E, 0x01, 0x01, 0x1E], "W": [0x11, 0x11, 0x11, 0x15, 0x15, 0x15, 0x0A],
    "M": [0x11, 0x1B, 0x15, 0x15, 0x11, 0x11, 0x11], "C": [0x0E, 0x11, 0x10, 0x10, 0x10, 0x11, 0x0E],
    "P": [0x1E, 0x11, 0x11, 0x1E, 0x10, 0x10, 0x10], "A": [0x0E, 0x11, 0x11, 0x1F, 0x11, 0x11, 0x11],
    "0": [0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E], "1": [0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E],
    "2": [0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F], "3": [0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E],
    "4": [0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02], "5": [0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E],
    "6": [0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E], "7": [0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08],
    "8": [0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E], "9": [0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C],
  ]

  /// Draws `text` with the built-in glyphs, `scale` pixels per dot, centred on `centerX`;
  /// x wraps around the image (it is a panorama).
  public static func drawText(_ text: String, centerX: Int, top: Int, scale: Int, color: UInt32, into image: inout RGBAImage) {
    let chars = Array(text)
    let advance = 6 * scale
    var left = centerX - (chars.count * advance - scale) / 2
    for c in chars {
      if let rows = glyphs[c] {
        for (ry, bits) in rows.enumerated() {
          for rx in 0..<5 where bits & (0x10 >> UInt8(rx)) != 0 {
            for sy in 0..<scale {
              let y = top + ry * scale + sy
              guard y >= 0 && y < image.height else { continue }
              for sx in 0..<scale {
                var x = (left + rx * scale + sx) % image.width
                if x < 0 { x += image.width }
                image.pixels[y * image.width + x] = color
              }
            }
          }
        }
      }
      left += advance
    }
  }
}
