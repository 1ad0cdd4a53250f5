import Panorama
import Testing

/// Sizes and strides a host passes in (a decoder's frame, a clip's metadata) are refused with
/// an `ImageError` naming the field; each case here trapped on a precondition before.
@Suite struct YUVRefusalTests {
  static let bytes = [UInt8](repeating: 128, count: 64)

  /// The 8-bit init over a scratch buffer; the defaults are good (8×4, packed strides).
  static func planes(
    width: Int = 8, height: Int = 4, yStride: Int = 8, uStride: Int = 4, vStride: Int = 4
  ) throws -> YUVPlanes {
    try bytes.withUnsafeBufferPointer { b in
      try YUVPlanes(
        width: width, height: height, y: b.baseAddress!, yStride: yStride, u: b.baseAddress!, uStride: uStride,
        v: b.baseAddress!, vStride: vStride)
    }
  }

  @Test func planesRefuseSizesAndStridesThatDoNotFit() throws {
    #expect(throws: ImageError(field: "width", message: "0 is not above 0")) { try Self.planes(width: 0) }
    #expect(throws: ImageError(field: "height", message: "-2 is not above 0")) { try Self.planes(height: -2) }
    #expect(throws: ImageError(field: "yStride", message: "7 bytes is shorter than a row of 8 samples of 1 byte")) {
      try Self.planes(yStride: 7)
    }
    // A chroma row is half the width rounded up: 5 wide needs 3.
    #expect(throws: ImageError(field: "vStride", message: "2 bytes is shorter than a row of 3 samples of 1 byte")) {
      try Self.planes(width: 5, yStride: 5, uStride: 3, vStride: 2)
    }
    // A decoder's negative line size (rows bottom-up) is refused, not read backwards.
    #expect(throws: ImageError(field: "uStride", message: "-4 bytes is shorter than a row of 4 samples of 1 byte")) {
      try Self.planes(uStride: -4)
    }
    let good = try Self.planes()
    #expect(good.width == 8 && good.height == 4)
  }

  @Test func deepPlanesRefuseOtherDepthsAndOddStrides() {
    func deep(bitDepth: Int, yStride: Int) throws -> YUVPlanes {
      try Self.bytes.withUnsafeBufferPointer { b in
        try YUVPlanes(
          width: 4, height: 2, bitDepth: bitDepth, y: b.baseAddress!, yStride: yStride, u: b.baseAddress!, uStride: 4,
          v: b.baseAddress!, vStride: 4)
      }
    }
    #expect(throws: ImageError(field: "bitDepth", message: "12: only 8- and 10-bit samples are read")) {
      try deep(bitDepth: 12, yStride: 8)
    }
    #expect(throws: ImageError(field: "yStride", message: "6 bytes is shorter than a row of 4 samples of 2 bytes")) {
      try deep(bitDepth: 10, yStride: 6)
    }
    #expect(throws: ImageError(field: "yStride", message: "9 bytes is odd; 16-bit samples need whole words")) {
      try deep(bitDepth: 10, yStride: 9)
    }
    #expect((try? deep(bitDepth: 10, yStride: 8))?.bitDepth == 10)
  }

  @Test func croppingRefusesMoreThanThePlanesHave() throws {
    let planes = try Self.planes()
    #expect(throws: ImageError(field: "width", message: "9 is not in 1...8")) { try planes.cropped(width: 9, height: 4) }
    #expect(throws: ImageError(field: "height", message: "0 is not in 1...4")) { try planes.cropped(width: 4, height: 0) }
    #expect(try planes.cropped(width: 4, height: 2).width == 4)
  }

  @Test func theRendererRefusesAFrameTooSmallAndPlanesOfAnotherSize() throws {
    let video = SphericalVideo(source: "test")
    #expect(throws: ImageError(field: "width", message: "1 is below the minimum of 2")) {
      try YUVRenderer(width: 1, height: 4, video: video)
    }
    #expect(throws: ImageError(field: "height", message: "0 is below the minimum of 2")) {
      try YUVRenderer(width: 4, height: 0, video: video)
    }
    var renderer = try YUVRenderer(width: 16, height: 8, video: video)
    var rgba = RGBAImage(width: 8, height: 6)
    var yuv = YUVImage(width: 8, height: 6)
    let planes = try Self.planes()  // 8×4, not 16×8
    let error = ImageError(field: "planes", message: "8×4, where this renderer draws from 16×8")
    #expect(throws: error) {
      try renderer.render(view: ViewAngles(), hfov: 1.5, from: planes, into: &rgba, executor: InlineRows())
    }
    #expect(throws: error) {
      try renderer.render(view: ViewAngles(), hfov: 1.5, from: planes, into: &yuv, executor: InlineRows())
    }
    #expect(rgba == RGBAImage(width: 8, height: 6) && yuv == YUVImage(width: 8, height: 6), "nothing drawn")
  }
}
