import HostIO
import Panorama

/// A tiled panorama's tiles on disk, for the hosts that read files (the CLI, the app): a tile
/// read and checked against the size its layout gives it. Where a config's tile address is on
/// disk is HostIO's `ConfigFolder` (inside the config's folder only, unless trusted).
public enum TileFiles {
  /// The tile at `file`, or why it cannot be used (missing, not an image, not the size
  /// `layout` gives `tile`), in words that name the file.
  public static func load(_ file: String, tile: TileID, layout: MultiresLayout) -> Result<RGBAImage, TileProblem> {
    let expected = layout.tileSize(level: tile.level, x: tile.x, y: tile.y)
    do {
      let bytes = try FileIO.read(file, limit: 64 << 20)
      let decoded = try Raster.decode(bytes, limits: ImageLimits(maxDimension: 16384, maxPixels: 1 << 26))
      if decoded.image.width == expected.width && decoded.image.height == expected.height { return .success(decoded.image) }
      return .failure(
        TileProblem(
          message:
            "\(Console.escaped(file)): is \(decoded.image.width)×\(decoded.image.height), expected \(expected.width)×\(expected.height) (cubeResolution \(layout.cubeResolution), tileResolution \(layout.tileResolution), level \(tile.level) of \(layout.maxLevel))"
        ))
    } catch {
      return .failure(TileProblem(file, error))
    }
  }
}

extension TileFiles {
  /// A cubemap's face size: the side of the face image at `file` (its header alone is read),
  /// or why it cannot be one (missing, not an image, not square), naming the file.
  public static func cubeFaceSize(_ file: String) -> Result<Int, TileProblem> {
    do {
      let size = try Raster.imageSize(try FileIO.readPrefix(file, count: 1 << 16))
      guard size.width == size.height else {
        return .failure(
          TileProblem(message: "\(Console.escaped(file)): a cube face must be square (it is \(size.width)×\(size.height))"))
      }
      return .success(size.width)
    } catch {
      return .failure(TileProblem(file, error))
    }
  }
}

/// Why a tile cannot be used, naming its file.
public struct TileProblem: Error, Sendable, CustomStringConvertible {
  public var message: String
  public var description: String { message }

  public init(message: String) { self.message = message }

  /// A read or decode failure of `file`, in the reader's own words.
  init(_ file: String, _ error: any Error) {
    let file = Console.escaped(file)
    switch error {
    case let error as FileError: message = "\(file): \(error.reason)"
    case let error as RasterError: message = "\(file): \(error.message)"
    default: message = "\(file): \(error)"
    }
  }
}
