import Panorama
import Testing

@Suite("DualFisheye")
struct DualFisheyeTests {
  /// A 2:1 luma plane: `value(x, y)` for each sample.
  static func plane(width: Int = 512, height: Int = 256, _ value: (Int, Int) -> UInt8) -> [UInt8] {
    var p = [UInt8](repeating: 0, count: width * height)
    for y in 0..<height { for x in 0..<width { p[y * width + x] = value(x, y) } }
    return p
  }

  static func looks(_ p: [UInt8], width: Int = 512, height: Int = 256) -> Bool {
    p.withUnsafeBufferPointer { DualFisheye.looksUnstitched(luma: $0.baseAddress!, width: width, height: height, stride: width) }
  }

  /// Two lit circles (a gradient, as a scene's sky and ground) on limited-range black.
  @Test func twoLensCirclesOnBlackAreSeen() {
    let p = Self.plane { x, y in
      let dx = Double(x % 256) - 127.5, dy = Double(y) - 127.5
      return (dx * dx + dy * dy).squareRoot() <= 128 ? UInt8(200 - y / 2) : 16
    }
    #expect(Self.looks(p))
  }

  /// An equirectangular frame, or one with black bands at the poles, a dark one, or a dual
  /// fisheye of the wrong shape: not taken for it.
  @Test func otherFramesAreNot() {
    #expect(!Self.looks(Self.plane { _, y in UInt8(200 - y / 2) }))
    #expect(!Self.looks(Self.plane { _, y in y < 40 || y > 216 ? 16 : 120 }))
    #expect(!Self.looks(Self.plane { _, _ in 16 }))
    let square = Self.plane(width: 256, height: 256) { x, y in
      let dx = Double(x % 128) - 63.5, dy = Double(y) - 127.5
      return (dx * dx + dy * dy).squareRoot() <= 64 ? 150 : 16
    }
    #expect(!Self.looks(square, width: 256, height: 256))
  }
}
