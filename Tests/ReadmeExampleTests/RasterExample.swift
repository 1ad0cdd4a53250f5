import CMacTypes
import Foundation
import Glibc
import HostIO
import Panorama
import Raster
import Testing

/// Sources/Raster/README.md's examples, run in a temporary directory (they write PNGs), with
/// Foundation for the file I/O an outside package would use (HostIO is not a product).
@Suite(.serialized) struct RasterExample {
  static let fixtures: String = {
    let file = "\(#filePath)"
    return String(file.dropLast("ReadmeExampleTests/RasterExample.swift".count)) + "Fixtures/raster"
  }()

  @Test func aBundledJPEGDecodesAndEncodesToAPNGWithTheSamePixels() throws {
    let fixtures = Self.fixtures
    let folder = "/tmp/imagestage-readme-raster-jpeg-\(getpid())"  // where the example writes
    mkdir(folder, 0o755)
    defer { StagedOutput.removeTree(folder) }
    // README Sources/Raster/README.md
    let jpeg = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "\(fixtures)/testsrc-320x160.jpg")))
    let decoded = try Raster.decode(jpeg)  // refused over ImageLimits() before allocating
    print(decoded.format, decoded.image.width, decoded.image.height)  // jpeg 320 160
    let png = try Raster.encodePNG(decoded.image)
    try Data(png).write(to: URL(fileURLWithPath: "\(folder)/testsrc.png"))
    // Read back, the PNG holds the same pixels: PNG is lossless.
    let again = try Raster.decode(png)
    print(again.format, again.image == decoded.image)  // png true
    // END README
    #expect(decoded.format == .jpeg)
    #expect(decoded.image.width == 320 && decoded.image.height == 160)
    #expect(Set(decoded.image.pixels).count > 100, "the test pattern, not one colour")
    #expect(again.format == .png)
    #expect(again.image == decoded.image)
    let written = try FileIO.read("\(folder)/testsrc.png")
    #expect(written == png)
    #expect(try Raster.imageSize(written) == (320, 160))
    // The limits the comment promises: the same file under a smaller limit is refused.
    #expect(throws: RasterError(.tooLarge, "the image is 320×160, over the limit of 256 px a side")) {
      try Raster.decode(jpeg, limits: ImageLimits(maxDimension: 256))
    }
  }

  @Test func theSampleLoadsRendersAndEncodesToAPNG() throws {
    let folder = "/tmp/imagestage-readme-raster-\(getpid())"  // where the example writes
    mkdir(folder, 0o755)
    defer { StagedOutput.removeTree(folder) }
    // README Sources/Raster/README.md
    let pano = try LoadedPanorama.load("sample")  // or a JPEG/PNG path: geometry from GPano, or assumed
    var renderer = try PanoramaRenderer(source: pano.image, geometry: pano.geometry)
    var frame = RGBAImage(width: 320, height: 180)
    renderer.renderPerspective(view: ViewAngles(), hfov: 1.57, into: &frame, executor: ThreadedRows(threads: 2))
    try Data(try Raster.encodePNG(frame)).write(to: URL(fileURLWithPath: "\(folder)/view.png"))
    // END README
    let png = try FileIO.read("\(folder)/view.png")
    #expect(Array(png.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
    #expect(try Raster.decode(png).image == frame)
  }
}
