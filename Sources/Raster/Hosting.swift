import Dispatch
import HostIO
import Panorama
import Synchronization

/// Runs the renderer's row bands on `threads` threads through Dispatch.
public struct ThreadedRows: RowExecutor {
  public let threads: Int

  public init(threads: Int) { self.threads = max(1, threads) }

  public func run(_ count: Int, _ body: @Sendable (Int) -> Void) {
    guard threads > 1, count > 1 else {
      for i in 0..<count { body(i) }
      return
    }
    // Workers take the next band as they finish one: a worker the machine stalls (or bands
    // that cost more, near the poles) does not leave the other idle at the end.
    let next = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: min(threads, count)) { _ in
      while true {
        let band = next.add(1, ordering: .relaxed).oldValue
        guard band < count else { return }
        body(band)
      }
    }
  }
}

/// A panorama loaded from a file (or the built-in sample) with its geometry.
public struct LoadedPanorama: Sendable {
  public var image: RGBAImage
  public var geometry: PanoramaGeometry
  public var format: String
  public var gpano: GPano?
  public var orientation: Int
  /// Why the geometry is what it is: read from GPano fields, or assumed from the shape.
  public var coverage: String = "a full 360° panorama"

  /// The built-in panorama, 4096×2048.
  public static func sample() -> LoadedPanorama {
    // 4096 is inside SamplePanorama's range, so `make` cannot throw here.
    let image = (try? SamplePanorama.make(width: 4096)) ?? RGBAImage(width: 1, height: 1)
    return LoadedPanorama(
      image: image, geometry: PanoramaGeometry(width: image.width, height: image.height), format: "sample", gpano: nil,
      orientation: 1)
  }

  /// Reads `path` ("sample" for the built-in panorama), with `projection` unless the file's
  /// GPano fields say otherwise.
  public static func load(
    _ path: String, projection: SourceProjection? = nil, limits: ImageLimits = ImageLimits()
  ) throws(PanoramaLoadError) -> LoadedPanorama {
    if path == "sample" { return sample() }
    let bytes: [UInt8]
    do {
      bytes = try FileIO.read(path, limit: 1 << 30)
    } catch {
      throw PanoramaLoadError(message: error.description)
    }
    let decoded: DecodedImage
    do {
      decoded = try Raster.decode(bytes, limits: limits)
    } catch {
      throw PanoramaLoadError(message: "\(Console.escaped(path)): \(error.message)")
    }
    let (geometry, coverage) = PanoramaGeometry.of(
      width: decoded.image.width, height: decoded.image.height, gpano: decoded.gpano, projection: projection)
    return LoadedPanorama(
      image: decoded.image, geometry: geometry, format: decoded.format.rawValue, gpano: decoded.gpano,
      orientation: decoded.orientation, coverage: coverage)
  }
}

/// Why a panorama could not be loaded, with the path.
public struct PanoramaLoadError: Error, Sendable, CustomStringConvertible {
  public var message: String
  public var description: String { message }
}
