import CTurboJPEG
import Panorama

extension Raster {
  /// A square thumbnail (the centre of the image, `side`×`side` pixels) for a photo on a
  /// board. JPEGs are decoded at 1/2, 1/4 or 1/8 size when that still covers `side`, so a
  /// 24-megapixel photo costs about a 1/64th of its full decode.
  public static func thumbnail(_ bytes: [UInt8], side: Int, limits: ImageLimits = ImageLimits()) throws(RasterError)
    -> RGBAImage
  {
    precondition(side > 0, "a thumbnail has a positive side")
    let decoded: RGBAImage
    if bytes.count >= 3 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[2] == 0xFF {
      decoded = try decodeJPEGReduced(bytes, atLeast: side, limits: limits)
    } else {
      decoded = try decode(bytes, limits: limits).image
    }
    return decoded.centerSquare(side: side)
  }

  static func decodeJPEGReduced(_ bytes: [UInt8], atLeast side: Int, limits: ImageLimits) throws(RasterError) -> RGBAImage {
    let tj = try TurboJPEG(compress: false)
    let (width, height) = try tj.size(of: bytes, limits: limits)
    var divisor: Int32 = 8
    while divisor > 1 && min(width, height) / divisor < Int32(side) { divisor /= 2 }
    let rows = try JPEGRows(bytes: bytes, limits: limits)
    rows.scale(Int(divisor))
    try rows.start(limits: limits, plus: rows.width * rows.height * 4)
    let image = try rows.readAll()
    return image.oriented(exif: JPEGMetadata(bytes).orientation)
  }
}

extension RGBAImage {
  /// The largest centred square, scaled to `side`×`side` by averaging the source pixels
  /// each output pixel covers (no aliasing when shrinking a lot).
  func centerSquare(side: Int) -> RGBAImage {
    let crop = min(width, height)
    let x0 = (width - crop) / 2, y0 = (height - crop) / 2
    var out = RGBAImage(width: side, height: side)
    for oy in 0..<side {
      let sy0 = y0 + oy * crop / side, sy1 = max(sy0 + 1, y0 + (oy + 1) * crop / side)
      for ox in 0..<side {
        let sx0 = x0 + ox * crop / side, sx1 = max(sx0 + 1, x0 + (ox + 1) * crop / side)
        var r = 0, g = 0, b = 0, n = 0
        for y in sy0..<sy1 {
          for x in sx0..<sx1 {
            let c = RGBAImage.unpack(self[x, y])
            r += Int(c.r)
            g += Int(c.g)
            b += Int(c.b)
            n += 1
          }
        }
        out[ox, oy] = RGBAImage.pack(r: UInt8(r / n), g: UInt8(g / n), b: UInt8(b / n))
      }
    }
    return out
  }
}
