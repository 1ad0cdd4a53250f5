import CoreMath
import Panorama
import Scenes
import StageJSON

// What both panorama modules share (the demo page's, web/page/ImageStageWeb.swift, and the
// viewer's, web/viewer/ViewerWeb.swift): the panorama's pixels on their way in, and the numbers the
// WebGL2 shader needs for a view. Compiled into each with web/WasmMemory.swift.

// Memory the host reads or writes between calls is allocated here and owned by this module
// (freed when replaced), never an array's storage: an address taken inside
// `withUnsafeMutableBytes` is only valid inside it.

nonisolated(unsafe) var frame = RGBAImage(width: 1, height: 1)
/// The last CPU-rendered frame's pixels, for the host to read until the next call.
nonisolated(unsafe) var framePixels = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: 0)

/// Copies `image`'s pixels into `framePixels` (grown when the size changed); its address.
func publish(_ image: RGBAImage) -> UnsafeMutableRawPointer? {
  if framePixels.count != image.pixels.count {
    framePixels.deallocate()
    framePixels = .allocate(capacity: image.pixels.count)
  }
  _ = framePixels.update(fromContentsOf: image.pixels)
  return UnsafeMutableRawPointer(framePixels.baseAddress)
}

// MARK: Panorama pixels

nonisolated(unsafe) var pendingPixels = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: 0)
nonisolated(unsafe) var pendingSize = (width: 0, height: 0)

/// Room for the panorama's `width`×`height` RGBA pixels, for the host to fill (one copy from
/// `getImageData`); the module's commit call hands them to the CPU renderer (one more copy,
/// into the renderer's image, after which this room is freed).
@_cdecl("web_panorama_buffer")
public func webPanoramaBuffer(_ width: Int32, _ height: Int32) -> UnsafeMutableRawPointer? {
  guard width > 0, height > 0 else { return nil }
  let (count, overflow) = Int(width).multipliedReportingOverflow(by: Int(height))
  guard !overflow else { return nil }
  pendingPixels.deallocate()
  pendingPixels = .allocate(capacity: count)
  pendingSize = (Int(width), Int(height))
  return UnsafeMutableRawPointer(pendingPixels.baseAddress)
}

/// The pixels `web_panorama_buffer` gave room for, handed over once.
func takePendingImage() -> RGBAImage? {
  guard pendingSize.width > 0 else { return nil }
  let pixels = [UInt32](unsafeUninitializedCapacity: pendingPixels.count) { buffer, initialized in
    _ = buffer.initialize(fromContentsOf: pendingPixels)
    initialized = pendingPixels.count
  }
  pendingPixels.deallocate()
  pendingPixels = .allocate(capacity: 0)
  let image = try? RGBAImage(width: pendingSize.width, height: pendingSize.height, pixels: pixels)
  pendingSize = (0, 0)
  return image
}

/// Hands the pixels `web_panorama_buffer` gave room for to `scene`'s CPU renderer (the
/// fallback, and the tests' reference); 0 when there were none. Mip levels wait for
/// `buildCPUExtras`, so the first frame is not held up by them.
func attachPendingPixels(_ scene: inout PanoramaScene) -> Int32 {
  guard let image = takePendingImage() else { return 0 }
  guard var renderer = try? PanoramaRenderer(source: image, geometry: scene.viewer.geometry) else { return 0 }
  renderer.buildsMipLevelsWhenMinified = false  // buildCPUExtras builds them after the first frame
  scene.attach(renderer)
  return 1
}

/// Builds the CPU renderer's mip levels (views that shrink the source stop aliasing) and
/// polar caps (views near a pole as fast as level ones).
func buildCPUExtras(_ scene: inout PanoramaScene) {
  scene.updateRenderer {
    $0.buildMipLevels(executor: InlineRows())
    $0.buildPolarCaps(executor: InlineRows())
  }
}

/// The GPano XMP of a JPEG or PNG file's first bytes.
func gpano(_ head: [UInt8]) -> GPano? {
  let xmp = head.starts(with: [0xFF, 0xD8]) ? JPEGMetadata(head).xmp : PNGMetadata.xmp(head)
  return xmp.flatMap { GPano(xmp: $0) }
}

func geometryJSON(_ g: PanoramaGeometry, coverage: String) -> JSONValue {
  [
    "projection": .string(g.projection.rawValue), "fullWidth": .number(g.fullWidth), "fullHeight": .number(g.fullHeight),
    "croppedLeft": .number(g.croppedLeft), "croppedTop": .number(g.croppedTop), "croppedWidth": .number(g.croppedWidth),
    "croppedHeight": .number(g.croppedHeight), "wraps": .bool(g.wraps), "coverage": .string(coverage),
  ]
}

/// Renders `scene`'s view with the CPU renderer into the shared `width`×`height` frame;
/// its address (valid until the next call), or nil without pixels.
func renderCPU(_ scene: inout PanoramaScene, _ width: Int32, _ height: Int32) -> UnsafeMutableRawPointer? {
  guard scene.renderer != nil, width > 0, height > 0 else { return nil }
  if frame.width != Int(width) || frame.height != Int(height) { frame = RGBAImage(width: Int(width), height: Int(height)) }
  scene.render(into: &frame, executor: InlineRows())
  return publish(frame)
}

/// The WebGL2 shader's numbers for a view: the camera, the lens, the strip's placement.
struct GPUNumbers {
  var camera: CameraParameters
  var lensIndex: Int
  var stripWidth: Double
  var stripOffset: Double
}

/// Everything the WebGL2 shader needs for a `width`×`height` pixel view of `scene`, computed
/// by the same code as the CPU renderer. Allocates nothing (the viewer calls it every frame).
func gpuNumbers(_ scene: PanoramaScene, _ width: Int32, _ height: Int32, _ sourceWidth: Int32, _ sourceHeight: Int32)
  -> GPUNumbers
{
  let v = scene.viewer
  let camera = CameraParameters(width: Int(width), height: Int(height), view: v.renderedView, hfov: v.hfov, lens: v.lens)
  let g = v.geometry
  let strip = StripCamera(
    imageWidth: Int(sourceWidth), imageHeight: Int(sourceHeight), viewWidth: Int(width), viewHeight: Int(height),
    fieldOfView: g.horizontalFOV)
  let repeats = g.wraps
  var yaw = v.renderedView.yaw
  if repeats && g.horizontalFOV > 0 { yaw = yaw.truncatingRemainder(dividingBy: g.horizontalFOV) }
  var stripOffset = strip.offset(yaw: yaw, edges: repeats ? .repeat : .clamp)
  if !stripOffset.isFinite { stripOffset = 0 }
  return GPUNumbers(
    camera: camera, lensIndex: ViewerFrameSlot.lenses.firstIndex(of: v.lens) ?? 0, stripWidth: strip.stripWidth,
    stripOffset: stripOffset)
}

/// `gpuNumbers` as the demo page reads them: JSON, with the view's own fields (degrees).
func gpuView(_ scene: PanoramaScene, _ width: Int32, _ height: Int32, _ sourceWidth: Int32, _ sourceHeight: Int32)
  -> JSONValue
{
  let n = gpuNumbers(scene, width, height, sourceWidth, sourceHeight)
  // `turn` (radians, within a turn) and `lensIndex` beside the view's own fields (degrees).
  let camerasFields: [(String, JSONValue)] = [
    ("lensIndex", .number(n.lensIndex)), ("matrix", .array(n.camera.matrix.map { .number($0) })),
    ("focal", .number(n.camera.focal)), ("turn", .number(n.camera.yaw)), ("stripWidth", .number(n.stripWidth)),
    ("stripOffset", .number(n.stripOffset)),
  ]
  return .object(camerasFields + SceneLines.viewFields(scene.viewer))
}

/// The key that changes when `scene`'s frame would (a host redraws only then).
func frameKey(_ scene: PanoramaScene, _ width: Int32, _ height: Int32) -> String {
  let k = scene.frameKey(width: Int(width), height: Int(height))
  return JSONValue.array([
    .number(k.view.yaw), .number(k.view.pitch), .number(k.view.roll), .number(k.hfov), .string(k.lens.rawValue),
    .string(k.mode.rawValue), .number(k.width), .number(k.height), .number(k.generation),
  ]).text
}
