import CoreMath

/// A panorama the project draws itself, so every command and the app have an input with no
/// download: sky, sun, mountains, a ground grid, and the compass marked on the horizon (N at
/// the centre column, E a quarter turn right, S at the seam, W a quarter turn left), with
/// degree labels every 30°. Equirectangular, 2:1.
public enum SamplePanorama {
  /// The smallest width ``make(width:)`` draws: below it the compass labels do not fit.
  public static let minimumWidth = 16
  /// The largest width ``make(width:)`` draws (a 2 GiB image).
  public static let maximumWidth = 32768

  /// Draws the panorama at `width`×`width/2`.
  ///
  /// - Throws: ``ImageError`` naming `width` when it is below ``minimumWidth`` or above
  ///   ``maximumWidth``.
  /// - Complexity: O(pixels); trigonometry is per row and per column only.
  public static func make(width: Int) throws(ImageError) -> RGBAImage {
    guard width >= minimumWidth else {
      throw ImageError(field: "width", message: "\(width) is below the minimum of \(minimumWidth)")
    }
    guard width <= maximumWidth else {
      throw ImageError(field: "width", message: "\(width) is above the maximum of \(maximumWidth)")
    }
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
      // S sits on the seam: drawn on both sides, so it reads whole (x wraps).
      drawText(
        letter, centerX: column(d == 180 ? -180 : d), top: row(-4), height: letterHeight, color: d == 0 ? red : white,
        into: &image)
    }
    for d in stride(from: -150, through: 150, by: 30) where d % 90 != 0 {
      drawText(
        String(d < 0 ? d + 360 : d), centerX: column(Double(d)), top: row(-4), height: letterHeight * 0.6, color: white,
        into: &image)
    }
  }

  /// Stroke glyphs: polylines in a box one unit tall and 0.6 wide (y down), drawn as smooth,
  /// anti-aliased strokes at any size (a pixel font looked blocky up close).
  static let glyphs: [Character: [[(Double, Double)]]] = [
    "N": [[(0, 1), (0, 0), (0.6, 1), (0.6, 0)]],
    "E": [[(0.6, 0), (0, 0), (0, 1), (0.6, 1)], [(0, 0.5), (0.45, 0.5)]],
    "W": [[(0, 0), (0.15, 1), (0.3, 0.35), (0.45, 1), (0.6, 0)]],
    "S": [
      [
        (0.6, 0.12), (0.5, 0.02), (0.3, 0), (0.1, 0.02), (0, 0.15), (0.05, 0.35), (0.3, 0.5), (0.55, 0.65), (0.6, 0.85),
        (0.5, 0.98), (0.3, 1), (0.1, 0.98), (0, 0.88),
      ]
    ],
    "0": [ellipse(x: 0.3, y: 0.5, rx: 0.3, ry: 0.5)],
    "1": [[(0.12, 0.2), (0.35, 0), (0.35, 1)], [(0.12, 1), (0.58, 1)]],
    "2": [[(0.02, 0.2), (0.15, 0.04), (0.3, 0), (0.48, 0.05), (0.58, 0.2), (0.55, 0.38), (0, 1), (0.6, 1)]],
    "3": [
      [(0.02, 0.1), (0.2, 0), (0.45, 0.03), (0.57, 0.18), (0.5, 0.38), (0.25, 0.48)],
      [(0.25, 0.48), (0.52, 0.58), (0.6, 0.78), (0.48, 0.96), (0.25, 1), (0.02, 0.9)],
    ],
    "4": [[(0.45, 1), (0.45, 0), (0, 0.7), (0.6, 0.7)]],
    "5": [[(0.55, 0), (0.08, 0), (0.03, 0.45), (0.3, 0.4), (0.52, 0.5), (0.6, 0.72), (0.5, 0.93), (0.28, 1), (0.02, 0.92)]],
    "6": [
      [
        (0.5, 0.05), (0.3, 0), (0.1, 0.12), (0, 0.45), (0.02, 0.8), (0.15, 0.97), (0.32, 1), (0.5, 0.93), (0.6, 0.75),
        (0.55, 0.55), (0.38, 0.45), (0.18, 0.48), (0.02, 0.62),
      ]
    ],
    "7": [[(0, 0), (0.6, 0), (0.2, 1)]],
    "8": [ellipse(x: 0.3, y: 0.25, rx: 0.24, ry: 0.25), ellipse(x: 0.3, y: 0.73, rx: 0.3, ry: 0.27)],
    "9": [
      [
        (0.58, 0.38), (0.42, 0.52), (0.22, 0.55), (0.05, 0.45), (0, 0.25), (0.1, 0.07), (0.3, 0), (0.5, 0.07), (0.6, 0.3),
        (0.58, 0.6), (0.45, 0.9), (0.25, 1), (0.08, 0.95),
      ]
    ],
  ]

  static func ellipse(x: Double, y: Double, rx: Double, ry: Double) -> [(Double, Double)] {
    (0...24).map { k in
      let (s, c) = Elementary.sinCos(Double(k) / 24 * Elementary.twoPi)
      return (x + rx * c, y + ry * s)
    }
  }

  /// Draws `text` in the stroke glyphs, `height` pixels tall, its top at `top`, centred on
  /// `centerX`, blended over the image; x wraps around (it is a panorama).
  public static func drawText(
    _ text: String, centerX: Double, top: Double, height: Double, color: UInt32, into image: inout RGBAImage
  ) {
    let chars = Array(text)
    guard height > 0, !chars.isEmpty else { return }
    let advance = 0.8 * height
    let width = (Double(chars.count) * advance - 0.2 * height)
    let left = centerX - width / 2
    // Half the stroke; at least 0.8 px, so a small label keeps a solid core.
    let half = max(0.8, height * 0.07)
    // Coverage per pixel over the text's box, the strongest stroke wins (no double blending
    // where strokes join).
    let x0 = Int((left - half - 1).rounded(.down)), y0 = Int((top - half - 1).rounded(.down))
    let boxW = Int((width + 2 * half + 3).rounded(.up)), boxH = Int((height + 2 * half + 3).rounded(.up))
    var coverage = [Double](repeating: 0, count: boxW * boxH)
    for (k, c) in chars.enumerated() {
      guard let strokes = glyphs[c] else { continue }
      let ox = left + Double(k) * advance
      for stroke in strokes {
        for (a, b) in zip(stroke, stroke.dropFirst()) {
          let ax = ox + a.0 * height, ay = top + a.1 * height, bx = ox + b.0 * height, by = top + b.1 * height
          let minX = Int((min(ax, bx) - half - 1).rounded(.down)) - x0, maxX = Int((max(ax, bx) + half + 1).rounded(.up)) - x0
          let minY = Int((min(ay, by) - half - 1).rounded(.down)) - y0, maxY = Int((max(ay, by) + half + 1).rounded(.up)) - y0
          for py in max(0, minY)...min(boxH - 1, maxY) {
            for px in max(0, minX)...min(boxW - 1, maxX) {
              let d = distance(Double(px + x0) + 0.5, Double(py + y0) + 0.5, ax, ay, bx, by)
              let cover = min(1, max(0, half + 0.5 - d))
              if cover > coverage[py * boxW + px] { coverage[py * boxW + px] = cover }
            }
          }
        }
      }
    }
    let ink = RGBAImage.unpack(color)
    for py in 0..<boxH {
      let y = py + y0
      guard y >= 0 && y < image.height else { continue }
      for px in 0..<boxW where coverage[py * boxW + px] > 0 {
        var x = (px + x0) % image.width
        if x < 0 { x += image.width }
        let a = coverage[py * boxW + px]
        let old = RGBAImage.unpack(image.pixels[y * image.width + x])
        func mix(_ o: UInt8, _ n: UInt8) -> UInt8 { UInt8((Double(o) * (1 - a) + Double(n) * a).rounded()) }
        image.pixels[y * image.width + x] = RGBAImage.pack(r: mix(old.r, ink.r), g: mix(old.g, ink.g), b: mix(old.b, ink.b))
      }
    }
  }

  /// Distance from (px, py) to the segment from (ax, ay) to (bx, by).
  static func distance(_ px: Double, _ py: Double, _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) -> Double {
    let dx = bx - ax, dy = by - ay
    let length2 = dx * dx + dy * dy
    let t = length2 > 0 ? min(1, max(0, ((px - ax) * dx + (py - ay) * dy) / length2)) : 0
    let ex = px - (ax + t * dx), ey = py - (ay + t * dy)
    return (ex * ex + ey * ey).squareRoot()
  }
}
