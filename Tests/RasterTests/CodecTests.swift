import CoreMath
import Foundation
import Panorama
import Testing

@testable import Raster

@Suite("Codecs")
struct CodecTests {
  static let image: RGBAImage = {
    var image = RGBAImage(width: 64, height: 48)
    for y in 0..<48 {
      for x in 0..<64 { image[x, y] = RGBAImage.pack(r: UInt8(x * 4), g: UInt8(y * 5), b: UInt8((x + y) * 2), a: 255) }
    }
    return image
  }()

  @Test func pngRoundTripIsExact() throws {
    let decoded = try Raster.decode(try Raster.encodePNG(Self.image))
    #expect(decoded.format == .png)
    #expect(decoded.image == Self.image)
  }

  /// The band-parallel encoder: bands of 128 rows deflated apart and joined must decode
  /// (libspng checks every CRC, zlib the Adler-32) to the same pixels, for band counts that
  /// do and do not divide the height, one-pixel images, and noise (every Paeth branch).
  @Test(arguments: [(1, 1), (3, 1), (1, 300), (257, 128), (97, 129), (130, 385)])
  func parallelPNGBandsDecodeExactly(width: Int, height: Int) throws {
    var image = RGBAImage(width: width, height: height)
    // A fixed-seed xorshift: the same noise every run.
    var state = UInt64(width * 1000 + height) | 1
    for y in 0..<height {
      for x in 0..<width {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        image[x, y] = UInt32(truncatingIfNeeded: state)
      }
    }
    for executor in [InlineRows() as any RowExecutor, ThreadedRows(threads: 3)] {
      let png = try Raster.encodePNG(image, executor: executor)
      let decoded = try Raster.decode(png)
      #expect(decoded.image == image, "\(width)×\(height)")
    }
    // Threads change nothing in the bytes.
    #expect(try Raster.encodePNG(image, executor: InlineRows()) == Raster.encodePNG(image, executor: ThreadedRows(threads: 2)))
  }

  @Test func jpegRoundTripIsClose() throws {
    let decoded = try Raster.decode(try Raster.encodeJPEG(Self.image, quality: 95))
    #expect(decoded.format == .jpeg)
    #expect(decoded.image.width == 64 && decoded.image.height == 48)
    #expect(decoded.image.psnr(against: Self.image) > 30)
  }

  /// A JPEG with an extra APP1 segment inserted after SOI.
  static func jpeg(withAPP1 body: [UInt8]) throws -> [UInt8] {
    var bytes = try Raster.encodeJPEG(Self.image)
    let length = body.count + 2
    bytes.insert(contentsOf: [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + body, at: 2)
    return bytes
  }

  @Test func exifOrientationIsApplied() throws {
    // Big-endian TIFF, one IFD0 entry: Orientation (0x0112), SHORT, 1, value 6 (rotate 90° CW).
    let tiff: [UInt8] = [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0, 0, 0]
    let decoded = try Raster.decode(try Self.jpeg(withAPP1: Array("Exif\0\0".utf8) + tiff))
    #expect(decoded.orientation == 6)
    #expect(decoded.image.width == 48 && decoded.image.height == 64)
    // The source's top-left corner ends up top-right.
    let corner = RGBAImage.unpack(decoded.image[47, 0])
    #expect(corner.r < 16 && corner.g < 16)
  }

  @Test func gpanoFieldsGiveThePartialPanoramasFieldOfView() throws {
    let xmp = """
      <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
      <rdf:Description xmlns:GPano="http://ns.google.com/photos/1.0/panorama/" GPano:ProjectionType="equirectangular"
       GPano:FullPanoWidthPixels="256" GPano:FullPanoHeightPixels="128" GPano:CroppedAreaLeftPixels="96"
       GPano:CroppedAreaTopPixels="40"><GPano:CroppedAreaImageWidthPixels>64</GPano:CroppedAreaImageWidthPixels>
       <GPano:CroppedAreaImageHeightPixels>48</GPano:CroppedAreaImageHeightPixels></rdf:Description></rdf:RDF></x:xmpmeta>
      """
    let decoded = try Raster.decode(try Self.jpeg(withAPP1: Array("http://ns.adobe.com/xap/1.0/\0".utf8) + Array(xmp.utf8)))
    let gpano = try #require(decoded.gpano)
    #expect(gpano.fullPanoWidth == 256 && gpano.croppedLeft == 96 && gpano.croppedHeight == 48)
    let geometry = gpano.geometry(width: 64, height: 48)
    #expect(abs(Angle(radians: geometry.horizontalFOV).degrees - 90) < 1e-9)
    #expect(abs(Angle(radians: geometry.verticalFOV).degrees - 67.5) < 1e-9)
    #expect(!geometry.wraps)
  }

  @Test func theCoresPNGAndJPEGMetadataReadersAgreeWithTheDecoders() throws {
    let xmp =
      "<x:xmpmeta><rdf:Description GPano:FullPanoWidthPixels=\"256\" GPano:CroppedAreaLeftPixels=\"96\" GPano:CroppedAreaTopPixels=\"40\" GPano:CroppedAreaImageWidthPixels=\"64\" GPano:CroppedAreaImageHeightPixels=\"48\"/></x:xmpmeta>"
    // PNG: an uncompressed iTXt chunk after IHDR, as editors write it.
    var png = try Raster.encodePNG(Self.image)
    let chunk = Array("iTXt".utf8) + Array("XML:com.adobe.xmp".utf8) + [0, 0, 0, 0, 0] + Array(xmp.utf8)
    let length = UInt32(chunk.count - 4), crc = crc32(chunk)
    let bigEndian = { (v: UInt32) in [UInt8(v >> 24), UInt8((v >> 16) & 255), UInt8((v >> 8) & 255), UInt8(v & 255)] }
    png.insert(contentsOf: bigEndian(length) + chunk + bigEndian(crc), at: 8 + 8 + 13 + 4)
    #expect(PNGMetadata.xmp(png) == xmp)
    #expect(try Raster.decode(png).gpano == GPano(xmp: xmp))
    let jpeg = try Self.jpeg(withAPP1: Array("http://ns.adobe.com/xap/1.0/\0".utf8) + Array(xmp.utf8))
    #expect(JPEGMetadata(jpeg).xmp == xmp)
    #expect(try Raster.decode(jpeg).gpano == GPano(xmp: xmp))
    // Truncated or foreign files give nothing, never a crash.
    for cut in [0, 8, 20, 33, 40, png.count / 2] { _ = PNGMetadata.xmp(Array(png.prefix(cut))) }
    #expect(PNGMetadata.xmp(jpeg) == nil && JPEGMetadata(png).xmp == nil)
  }

  @Test(arguments: [
    ("9000000000000000000", "128", "96", "40"), ("256", "128", "9000000000000000000", "40"),
    ("256", "128", "-9000000000000000000", "-9000000000000000000"), ("9000000000000000000", "1", "0", "0"),
    ("65", "9000000000000000000", "1", "9000000000000000000"),
  ])
  func extremeGPanoFieldsStillRender(full: String, fullHeight: String, left: String, top: String) throws {
    let xmp = """
      <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
      <rdf:Description xmlns:GPano="http://ns.google.com/photos/1.0/panorama/" GPano:ProjectionType="equirectangular"
       GPano:FullPanoWidthPixels="\(full)" GPano:FullPanoHeightPixels="\(fullHeight)" GPano:CroppedAreaLeftPixels="\(left)"
       GPano:CroppedAreaTopPixels="\(top)" GPano:CroppedAreaImageWidthPixels="64" GPano:CroppedAreaImageHeightPixels="48"/>
      </rdf:RDF></x:xmpmeta>
      """
    let decoded = try Raster.decode(try Self.jpeg(withAPP1: Array("http://ns.adobe.com/xap/1.0/\0".utf8) + Array(xmp.utf8)))
    let gpano = try #require(decoded.gpano)
    // Found while fuzzing: such fields made the renderer overflow fixed point and trap. They
    // are ignored now (the image is taken as a whole 2:1 panorama), and the renderer copes
    // with any geometry a library user builds.
    let geometry = gpano.geometry(width: 64, height: 48)
    #expect(geometry == PanoramaGeometry(width: 64, height: 48))
    let extreme = PanoramaGeometry(
      projection: .equirectangular, fullWidth: 9e18, fullHeight: 1, croppedLeft: -9e18, croppedTop: 9e18,
      croppedWidth: 64, croppedHeight: 48)
    for geometry in [geometry, extreme] {
      try render(decoded.image, geometry)
    }
  }

  func render(_ image: RGBAImage, _ geometry: PanoramaGeometry) throws {
    var renderer = try! PanoramaRenderer(source: image, geometry: geometry)
    var frame = RGBAImage(width: 32, height: 24)
    for view in [ViewAngles(), ViewAngles(yaw: 2, pitch: 1.2, roll: 0.3), ViewAngles(yaw: -3, pitch: -1.5)] {
      renderer.renderPerspective(view: view, hfov: 1.5, into: &frame, executor: InlineRows())
      renderer.renderStrip(yaw: view.yaw, edges: .repeat, into: &frame, executor: InlineRows())
      renderer.renderStrip(yaw: view.yaw, edges: .clamp, into: &frame, executor: InlineRows())
    }
  }

  @Test func hugeHeadersAreRefusedBeforeAllocating() throws {
    // Rewrite the JPEG's SOF0 size to 60000×60000 (3.6 gigapixels).
    var jpeg = try Raster.encodeJPEG(Self.image)
    let sof = try #require(jpeg.indices.first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 })
    jpeg[sof + 5] = 0xEA
    jpeg[sof + 6] = 0x60
    jpeg[sof + 7] = 0xEA
    jpeg[sof + 8] = 0x60
    #expect(throws: RasterError.self) { try Raster.decode(jpeg) }
    do {
      _ = try Raster.decode(jpeg)
    } catch {
      #expect(error.kind == .tooLarge)
      #expect(error.message.contains("60000×60000"))
    }
    // And a PNG whose IHDR claims 100000×100000, with a valid CRC.
    var png = try Raster.encodePNG(Self.image)
    png.replaceSubrange(16..<24, with: [0, 1, 0x86, 0xA0, 0, 1, 0x86, 0xA0])
    let crc = crc32(Array(png[12..<29]))
    png.replaceSubrange(
      29..<33, with: [UInt8(crc >> 24), UInt8((crc >> 16) & 0xFF), UInt8((crc >> 8) & 0xFF), UInt8(crc & 0xFF)])
    #expect(throws: RasterError.self) { try Raster.decode(png, limits: ImageLimits(maxDimension: 200_000)) }
    #expect(throws: RasterError.self) { try Raster.decode(png) }
  }

  /// A pixel limit under a tenth of a megapixel (`--max-pixels 0.001`) was printed as "0
  /// megapixels"; it is given in pixels.
  @Test func aSmallPixelLimitIsNamedInPixels() {
    #expect(throws: RasterError(.tooLarge, "the image is 64×48, over the limit of 1000 pixels")) {
      try Raster.decode(try Raster.encodePNG(Self.image), limits: ImageLimits(maxPixels: 1000))
    }
    // From a tenth of a megapixel up, in megapixels as `--max-pixels` takes them.
    let big = RGBAImage(width: 400, height: 300)
    #expect(throws: RasterError(.tooLarge, "the image is 400×300, over the limit of 0.1 megapixels")) {
      try Raster.decode(try Raster.encodePNG(big), limits: ImageLimits(maxPixels: 100_000))
    }
  }

  /// An empty image reached TurboJPEG, whose "tjCompress2(): Invalid argument" said nothing
  /// of the size; it is refused first, naming it.
  @Test func encodingAnEmptyImageIsAnError() {
    #expect(throws: RasterError(.encode, "cannot encode JPEG: the image is 0×0")) {
      try Raster.encodeJPEG(RGBAImage(width: 0, height: 0))
    }
    #expect(throws: RasterError(.encode, "cannot encode PNG: the image is 5×0")) {
      try Raster.encodePNG(RGBAImage(width: 5, height: 0))
    }
  }

  @Test func truncatedCorruptAndEmptyInputsAreErrors() throws {
    let jpeg = try Raster.encodeJPEG(Self.image)
    let png = try Raster.encodePNG(Self.image)
    for bad in [
      Array(jpeg.prefix(jpeg.count / 2)), Array(png.prefix(png.count - 20)), Array(png.prefix(40)), [], Array("hello".utf8),
    ] {
      #expect(throws: RasterError.self) { try Raster.decode(bad) }
    }
    var corrupt = png
    corrupt[60] ^= 0xFF
    #expect(throws: RasterError.self) { try Raster.decode(corrupt) }
    #expect(throws: RasterError.self) { try Raster.encode(Self.image, forPath: "x.gif") }
  }
}

func crc32(_ bytes: [UInt8]) -> UInt32 {
  var crc: UInt32 = 0xFFFF_FFFF
  for b in bytes {
    crc ^= UInt32(b)
    for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
  }
  return ~crc
}

/// Rows streamed through libjpeg's scanline API, as the tiler reads a panorama too big to
/// decode whole: the same pixels as the whole-image decoder, and clear errors.
@Suite("Streamed rows")
struct PanoramaRowsTests {
  static func write(_ bytes: [UInt8], _ name: String) throws -> String {
    let path = NSTemporaryDirectory() + "rows-\(getpid())-\(name)"
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
  }

  @Test func streamedRowsAreTheWholeDecodesPixels() throws {
    let sample = try! SamplePanorama.make(width: 512)
    let bytes = try Raster.encodeJPEG(sample, quality: 85)
    let path = try Self.write(bytes, "a.jpg")
    defer { unlink(path) }
    let rows = try PanoramaRows(path)
    #expect(rows.isStreamed)
    #expect(rows.width == 512 && rows.height == 256 && rows.geometry.wraps)
    var streamed = RGBAImage(width: 512, height: 256)
    try streamed.pixels.withUnsafeMutableBufferPointer { p in
      // Uneven reads, as the tiler's band does.
      var row = 0
      for count in [1, 7, 16, 100, 132] {
        try rows.read(into: p.baseAddress! + row * 512, count: count)
        row += count
      }
    }
    #expect(streamed == (try Raster.decode(bytes)).image)
    #expect(throws: RasterError.self) {
      var one = [UInt32](repeating: 0, count: 512)
      try one.withUnsafeMutableBufferPointer { try rows.read(into: $0.baseAddress!, count: 1) }
    }
  }

  @Test func aTruncatedJPEGFailsAtItsRowNotWithGrey() throws {
    let bytes = try Raster.encodeJPEG(try! SamplePanorama.make(width: 512), quality: 85)
    let path = try Self.write(Array(bytes.prefix(bytes.count / 2)), "cut.jpg")
    defer { unlink(path) }
    let rows = try PanoramaRows(path)
    var buffer = [UInt32](repeating: 0, count: 512 * 256)
    let error = #expect(throws: RasterError.self) {
      try buffer.withUnsafeMutableBufferPointer { try rows.read(into: $0.baseAddress!, count: 256) }
    }
    #expect(error?.message.contains("cut.jpg") == true && error?.message.contains("corrupt JPEG data") == true)
  }

  @Test func notAnImageNamesTheFile() throws {
    let path = try Self.write(Array("hello".utf8), "text.jpg")
    defer { unlink(path) }
    let error = #expect(throws: PanoramaLoadError.self) { try PanoramaRows(path) }
    #expect(error?.message.contains("text.jpg") == true)
  }

  @Test func pngIsDecodedWholeAndHandedOutInRows() throws {
    let sample = try! SamplePanorama.make(width: 256)
    let path = try Self.write(try Raster.encodePNG(sample), "b.png")
    defer { unlink(path) }
    let rows = try PanoramaRows(path)
    #expect(!rows.isStreamed)
    var out = RGBAImage(width: 256, height: 128)
    try out.pixels.withUnsafeMutableBufferPointer { try rows.read(into: $0.baseAddress!, count: 128) }
    #expect(out == sample)
  }
}
