import Panorama
import Testing

/// Images and renderers made from a caller's data throw an `ImageError` naming the field
/// (issue 41, item 4). Each of these trapped before: a precondition in `RGBAImage`,
/// `PanoramaRenderer` and `SamplePanorama.make`.
@Suite struct ImageErrorTests {
  @Test func pixelsOfTheWrongCountAreRefusedWithTheCountNeeded() {
    #expect(throws: ImageError(field: "pixels", message: "5 pixels for a 2×3 image, which needs 6")) {
      try RGBAImage(width: 2, height: 3, pixels: [UInt32](repeating: 0, count: 5))
    }
    #expect(throws: ImageError(field: "pixels", message: "0 pixels for a 2×3 image, which needs 6")) {
      try RGBAImage(width: 2, height: 3, pixels: [])
    }
  }

  @Test func negativeAndOverflowingSizesAreRefused() {
    #expect(throws: ImageError(field: "width", message: "-1 is negative")) { try RGBAImage(width: -1, height: 3, pixels: []) }
    #expect(throws: ImageError(field: "height", message: "-2 is negative")) { try RGBAImage(width: 0, height: -2, pixels: []) }
    #expect(throws: ImageError(field: "pixels", message: "1 pixels for a \(Int.max)×2 image, which needs more")) {
      try RGBAImage(width: Int.max, height: 2, pixels: [0])
    }
    #expect(ImageError(field: "width", message: "-1 is negative").description == "width: -1 is negative")
  }

  @Test func theRightCountMakesTheImage() throws {
    let image = try RGBAImage(width: 2, height: 1, pixels: [1, 2])
    #expect(image[1, 0] == 2)
  }

  @Test(arguments: [(0, 0), (0, 4), (4, 0)])
  func aRendererOfAnEmptyImageIsRefused(width: Int, height: Int) {
    let empty = RGBAImage(width: width, height: height)
    #expect(throws: ImageError.self) { try PanoramaRenderer(source: empty, geometry: PanoramaGeometry(width: 4, height: 2)) }
    do throws(ImageError) {
      _ = try PanoramaRenderer(source: empty, geometry: PanoramaGeometry(width: 4, height: 2))
    } catch {
      #expect(error.field == "source")
      #expect(error.description == "source: the image is \(width)×\(height); a panorama needs at least 1×1 pixels")
    }
  }

  @Test(arguments: [Int.min, -16, 0, 8, 15])
  func aSampleBelowTheMinimumSaysWhatTheMinimumIs(width: Int) {
    #expect(throws: ImageError(field: "width", message: "\(width) is below the minimum of 16")) {
      try SamplePanorama.make(width: width)
    }
  }

  @Test func aSampleAboveTheMaximumIsRefusedBeforeAllocating() {
    #expect(throws: ImageError(field: "width", message: "\(Int.max) is above the maximum of 32768")) {
      try SamplePanorama.make(width: Int.max)
    }
  }

  @Test func theSmallestSampleDraws() throws {
    let sample = try SamplePanorama.make(width: SamplePanorama.minimumWidth)
    #expect(sample.width == 16 && sample.height == 8)
  }
}
