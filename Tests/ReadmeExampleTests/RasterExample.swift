import CMacTypes
import Glibc
import HostIO
import Panorama
import Raster
import Testing

/// Sources/Raster/README.md's example, run in a temporary directory (it writes a PNG).
@Suite(.serialized) struct RasterExample {
  @Test func theSampleLoadsRendersAndEncodesToAPNG() throws {
    let folder = "/tmp/imagestage-readme-raster-\(getpid())"  // where the example writes
    mkdir(folder, 0o755)
    defer { StagedOutput.removeTree(folder) }
    // README Sources/Raster/README.md
    let pano = try LoadedPanorama.load("sample")  // or a JPEG/PNG path: geometry from GPano, or assumed
    var renderer = try PanoramaRenderer(source: pano.image, geometry: pano.geometry)
    var frame = RGBAImage(width: 320, height: 180)
    renderer.renderPerspective(view: ViewAngles(), hfov: 1.57, into: &frame, executor: ThreadedRows(threads: 2))
    try FileIO.writeAtomically(try Raster.encodePNG(frame), to: "\(folder)/view.png")
    // END README
    let png = try FileIO.read("\(folder)/view.png")
    #expect(Array(png.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
    #expect(try Raster.decode(png).image == frame)
  }
}
