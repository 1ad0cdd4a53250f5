import Panorama
import StageSDL

// StageSDL takes and gives bytes, so that it depends on SDL alone; the app's images are
// Panorama's `RGBAImage`, whose packed pixels are those bytes (red in the low byte).

extension Texture {
  /// A texture showing `image`; `streaming` ones can be updated every frame.
  convenience init(_ window: Window, image: RGBAImage, streaming: Bool = false) throws(SDLError) {
    try self.init(window, width: image.width, height: image.height, streaming: streaming)
    update(image)
  }

  /// Replaces the texture's pixels with `image`'s, which must be the texture's size.
  func update(_ image: RGBAImage) {
    precondition(image.width == width && image.height == height, "texture size mismatch")
    image.pixels.withUnsafeBytes { update(pixels: $0) }
  }
}

extension Window {
  /// The frame drawn so far, as an image (for screenshots).
  func readImage() throws(SDLError) -> RGBAImage {
    let (w, h) = pixelSize
    var image = RGBAImage(width: w, height: h)
    var failure: SDLError?
    image.pixels.withUnsafeMutableBytes { bytes in
      do throws(SDLError) { try readPixels(width: w, height: h, into: bytes) } catch { failure = error }
    }
    if let failure { throw failure }
    return image
  }
}
