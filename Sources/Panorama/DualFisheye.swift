/// A cheap look at a 2:1 frame with no spherical metadata for the layout of an unstitched
/// dual-fisheye camera file (an Insta360 .insv, a Ricoh Theta raw video): two lens circles
/// side by side, each about as tall as the frame, black outside them. Such a frame would
/// otherwise be drawn as equirectangular without a word. A few luma patches decide: black
/// at the corners and above and below the point where the circles meet, lit at the circles'
/// centres and most of the way out to their rims.
public enum DualFisheye {
  /// Whether the `width`×`height` luma plane looks like two lens circles side by side.
  /// `bitDepth` 10: 16-bit little-endian samples (`stride` in bytes), scaled to 8 bits.
  public static func looksUnstitched(
    luma: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int, bitDepth: Int = 8
  ) -> Bool {
    guard height >= 16, width >= 32, stride >= width * (bitDepth == 8 ? 1 : 2), abs(width - 2 * height) <= width / 50 else {
      return false
    }
    let w = Double(width), h = Double(height)
    let patch = max(1, height / 64)
    /// Mean luma of the patch centred on (fx·w, fy·h), clamped inside the frame.
    func mean(_ fx: Double, _ fy: Double) -> Int {
      let x0 = min(max(Int(fx * w) - patch / 2, 0), width - patch)
      let y0 = min(max(Int(fy * h) - patch / 2, 0), height - patch)
      var sum = 0
      for y in y0..<(y0 + patch) {
        for x in x0..<(x0 + patch) {
          let o = y * stride + x * (bitDepth == 8 ? 1 : 2)
          sum += bitDepth == 8 ? Int(luma[o]) : (Int(luma[o]) | Int(luma[o + 1]) << 8) >> (bitDepth - 8)
        }
      }
      return sum / (patch * patch)
    }
    // Outside both circles (radius about h/2 round (w/4, h/2) and (3w/4, h/2)): the corners,
    // the top and bottom edges' centres, and a fifth of the way in above and below the
    // point where the circles touch (0.58·h from either centre).
    let outside = [
      mean(0.01, 0.02), mean(0.99, 0.02), mean(0.01, 0.98), mean(0.99, 0.98), mean(0.5, 0.02), mean(0.5, 0.98),
      mean(0.5, 0.2), mean(0.5, 0.8),
    ]
    let dark = outside.max()!
    // Limited-range black is 16; compression and a lens's stray light lift it a little.
    guard dark <= 40 else { return false }
    let lit = dark + 20
    guard mean(0.25, 0.5) >= max(lit, 48), mean(0.75, 0.5) >= max(lit, 48) else { return false }
    // Most of each circle is picture: 0.8 of the radius out, left, right, up and down.
    var inside = 0
    for cx in [0.25, 0.75] {
      for (dx, dy) in [(0.2, 0.0), (-0.2, 0.0), (0.0, 0.4), (0.0, -0.4)] where mean(cx + dx, 0.5 + dy) >= lit {
        inside += 1
      }
    }
    return inside >= 6
  }

  /// What every host says of such a clip (`name`: its file), so the CLI and the app agree.
  public static func warning(_ name: String) -> String {
    "\(name) looks like an unstitched dual-fisheye frame (two lens circles side by side); ImageStage draws stitched equirectangular video: stitch it first with the camera's software, or roughly with ffmpeg -vf v360=dfisheye:e:ih_fov=190:iv_fov=190"
  }

  /// `looksUnstitched` on a frame's luma plane.
  public static func looksUnstitched(_ planes: YUVPlanes) -> Bool {
    looksUnstitched(
      luma: planes.y, width: planes.width, height: planes.height, stride: planes.yStride, bitDepth: planes.bitDepth)
  }
}
