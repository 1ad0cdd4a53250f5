import CSDL2

/// An SDL failure, with `SDL_GetError()` read at the moment the call failed.
public struct SDLError: Error, CustomStringConvertible, Sendable {
  public var message: String
  public var description: String { message }

  static func current(_ what: String) -> SDLError {
    SDLError(message: "\(what): \(String(cString: SDL_GetError()))")
  }
}

/// A rectangle in window pixels (SDL's integer rectangles, built from doubles).
public struct PixelRect: Sendable {
  public var x: Int32, y: Int32, w: Int32, h: Int32
  public init(x: Double, y: Double, w: Double, h: Double) {
    self.x = Int32(x.rounded())
    self.y = Int32(y.rounded())
    self.w = Int32(w.rounded())
    self.h = Int32(h.rounded())
  }
  var sdl: SDL_Rect { SDL_Rect(x: x, y: y, w: w, h: h) }
}

/// An RGBA colour.
public struct Color: Sendable, Equatable {
  public var r: UInt8, g: UInt8, b: UInt8, a: UInt8
  public init(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8 = 255) {
    self.r = r
    self.g = g
    self.b = b
    self.a = a
  }
}

/// The SDL window and its renderer. Owns both; `deinit` destroys them and quits SDL.
public final class Window {
  public let window: OpaquePointer
  public let renderer: OpaquePointer
  var fonts: [Int: OpaquePointer] = [:]
  var textCache: [String: (texture: OpaquePointer, w: Int32, h: Int32)] = [:]
  let fontPath: String?
  /// Files of a drop in progress (SDL sends one event a file between a begin and a complete).
  var droppedFiles: [String] = []

  /// Opens a resizable, high-DPI-aware window with a vsynced renderer.
  public init(title: String, width: Int, height: Int, fontPath: String?) throws(SDLError) {
    SDL_SetHint(SDL_HINT_TOUCH_MOUSE_EVENTS, "0")  // fingers arrive as fingers, not also as a mouse
    SDL_SetHint(SDL_HINT_VIDEO_X11_NET_WM_BYPASS_COMPOSITOR, "0")
    SDL_SetHint(SDL_HINT_RENDER_SCALE_QUALITY, "1")
    let display = getenv("DISPLAY").map { String(cString: $0) } ?? ""
    let wayland = getenv("WAYLAND_DISPLAY") != nil
    // X11 only, unless Wayland is there: SDL's Wayland probe prints "XDG_RUNTIME_DIR is
    // invalid" on a machine without it, a stray line beside our own message.
    if !wayland && getenv("SDL_VIDEODRIVER") == nil { SDL_SetHint("SDL_VIDEODRIVER", "x11") }
    let noDisplay =
      display.isEmpty
      ? "no display: DISPLAY is not set (run it under Xvfb: xvfb-run -a imagestage-app …; make app does)"
      : "no X server answers on DISPLAY=\(display) (is it running? Xvfb \(display) & starts one)"
    guard SDL_Init(SDL_INIT_VIDEO | SDL_INIT_EVENTS) == 0 else {
      throw SDLError(message: "cannot start SDL video: \(wayland ? String(cString: SDL_GetError()) : noDisplay)")
    }
    // Without a display SDL may fall back to an off-screen driver: a window nobody sees.
    // Refuse unless the user chose that driver.
    let driver = SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? "none"
    if getenv("SDL_VIDEODRIVER") == nil && ["offscreen", "dummy", "evdev"].contains(driver) {
      SDL_Quit()
      throw SDLError(message: "cannot start SDL video: \(noDisplay)")
    }
    // Game controllers and sensors are optional: their absence is not an error.
    _ = SDL_InitSubSystem(SDL_INIT_GAMECONTROLLER | SDL_INIT_SENSOR)
    let centered = Int32(bitPattern: 0x2FFF_0000)
    let flags = SDL_WINDOW_RESIZABLE.rawValue | SDL_WINDOW_ALLOW_HIGHDPI.rawValue | SDL_WINDOW_SHOWN.rawValue
    guard let w = SDL_CreateWindow(title, centered, centered, Int32(width), Int32(height), flags) else {
      let error = SDLError.current("cannot open a window")
      SDL_Quit()
      throw error
    }
    var r = SDL_CreateRenderer(w, -1, SDL_RENDERER_ACCELERATED.rawValue | SDL_RENDERER_PRESENTVSYNC.rawValue)
    if r == nil { r = SDL_CreateRenderer(w, -1, SDL_RENDERER_SOFTWARE.rawValue) }
    guard let r else {
      let error = SDLError.current("cannot create a renderer")
      SDL_DestroyWindow(w)
      SDL_Quit()
      throw error
    }
    window = w
    renderer = r
    SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND)
    if let fontPath, TTF_Init() == 0 {
      self.fontPath = fontPath
    } else {
      self.fontPath = nil
    }
  }

  deinit {
    for (_, c) in cursors { SDL_FreeCursor(c) }
    for (_, t) in textCache { SDL_DestroyTexture(t.texture) }
    for (_, f) in fonts { TTF_CloseFont(f) }
    if fontPath != nil { TTF_Quit() }
    SDL_DestroyRenderer(renderer)
    SDL_DestroyWindow(window)
    SDL_Quit()
  }

  /// Window size in points (what mouse events use).
  public var size: (width: Int, height: Int) {
    var w: Int32 = 0, h: Int32 = 0
    SDL_GetWindowSize(window, &w, &h)
    return (Int(w), Int(h))
  }

  /// Drawable size in pixels; larger than `size` on high-DPI screens.
  public var pixelSize: (width: Int, height: Int) {
    var w: Int32 = 0, h: Int32 = 0
    SDL_GetRendererOutputSize(renderer, &w, &h)
    return (Int(w), Int(h))
  }

  /// Draws in window points whatever the pixel density.
  public func matchScaleToWindow() {
    let (w, _) = size
    let (pw, _) = pixelSize
    let scale = w > 0 ? Float(pw) / Float(w) : 1
    SDL_RenderSetScale(renderer, scale, scale)
  }

  public func setTitle(_ title: String) { SDL_SetWindowTitle(window, title) }

  public func clear(_ c: Color) {
    SDL_SetRenderDrawColor(renderer, c.r, c.g, c.b, c.a)
    SDL_RenderClear(renderer)
  }

  public func fill(_ rect: PixelRect, _ c: Color) {
    SDL_SetRenderDrawColor(renderer, c.r, c.g, c.b, c.a)
    var r = rect.sdl
    SDL_RenderFillRect(renderer, &r)
  }

  public func outline(_ rect: PixelRect, _ c: Color, thickness: Int32 = 1) {
    SDL_SetRenderDrawColor(renderer, c.r, c.g, c.b, c.a)
    for i in 0..<thickness {
      var r = SDL_Rect(x: rect.x + i, y: rect.y + i, w: rect.w - 2 * i, h: rect.h - 2 * i)
      SDL_RenderDrawRect(renderer, &r)
    }
  }

  /// Fills `rect` with corners rounded by `radius` pixels: whole rows in the middle, one
  /// span per row where the corners curve.
  public func fill(_ rect: PixelRect, _ c: Color, radius: Int32) {
    let r = min(radius, rect.w / 2, rect.h / 2)
    guard r > 1 else { return fill(rect, c) }
    SDL_SetRenderDrawColor(renderer, c.r, c.g, c.b, c.a)
    var middle = SDL_Rect(x: rect.x, y: rect.y + r, w: rect.w, h: rect.h - 2 * r)
    SDL_RenderFillRect(renderer, &middle)
    for i in 0..<r {
      let dy = Double(r - i) - 0.5
      let inset = Int32((Double(r) - (Double(r * r) - dy * dy).squareRoot()).rounded())
      var top = SDL_Rect(x: rect.x + inset, y: rect.y + i, w: rect.w - 2 * inset, h: 1)
      var bottom = SDL_Rect(x: rect.x + inset, y: rect.y + rect.h - 1 - i, w: rect.w - 2 * inset, h: 1)
      SDL_RenderFillRect(renderer, &top)
      SDL_RenderFillRect(renderer, &bottom)
    }
  }

  /// Keeps the window at least `width`×`height` points.
  public func setMinimumSize(width: Int, height: Int) { SDL_SetWindowMinimumSize(window, Int32(width), Int32(height)) }

  var cursors: [Int: OpaquePointer] = [:]
  var currentCursor = -1

  /// The pointer shapes the app shows, each one of SDL's system cursors.
  public enum Cursor: Sendable {
    case arrow, hand, move

    var sdl: SDL_SystemCursor {
      switch self {
      case .arrow: SDL_SYSTEM_CURSOR_ARROW
      case .hand: SDL_SYSTEM_CURSOR_HAND
      case .move: SDL_SYSTEM_CURSOR_SIZEALL
      }
    }
  }

  /// Shows `cursor`, creating each of SDL's cursors once.
  public func setCursor(_ cursor: Cursor) {
    let id = cursor.sdl
    let key = Int(id.rawValue)
    guard key != currentCursor else { return }
    if cursors[key] == nil { cursors[key] = SDL_CreateSystemCursor(id) }
    if let c = cursors[key] { SDL_SetCursor(c) }
    currentCursor = key
  }

  public func present() { SDL_RenderPresent(renderer) }

  /// Copies the top-left `width`×`height` pixels of the frame drawn so far (for screenshots;
  /// `pixelSize` is all of it) into `pixels`: rows from the top, 4 bytes a pixel in the
  /// order red, green, blue, alpha. `pixels` must hold `width * height * 4` bytes.
  public func readPixels(width: Int, height: Int, into pixels: UnsafeMutableRawBufferPointer) throws(SDLError) {
    precondition(pixels.count >= width * height * 4, "readPixels: \(pixels.count) bytes for \(width)×\(height) pixels")
    var area = SDL_Rect(x: 0, y: 0, w: Int32(width), h: Int32(height))
    let status = SDL_RenderReadPixels(renderer, &area, SDL_PIXELFORMAT_ABGR8888.rawValue, pixels.baseAddress, Int32(width * 4))
    guard status == 0 else { throw .current("cannot read the frame") }
  }

  // MARK: Text

  func font(size: Int) -> OpaquePointer? {
    if let f = fonts[size] { return f }
    guard let fontPath, let f = TTF_OpenFont(fontPath, Int32(size)) else { return nil }
    fonts[size] = f
    return f
  }

  /// The width in points of `text` at `size`.
  public func textWidth(_ text: String, size: Int) -> Int {
    guard let f = font(size: size) else { return 0 }
    var w: Int32 = 0, h: Int32 = 0
    TTF_SizeUTF8(f, text, &w, &h)
    return Int(w)
  }

  /// `text`, shortened with an ellipsis until it fits `maxWidth` points.
  public func fitted(_ text: String, size: Int, maxWidth: Double) -> String {
    guard Double(textWidth(text, size: size)) > maxWidth else { return text }
    var chars = Array(text)
    while !chars.isEmpty && Double(textWidth(String(chars) + "…", size: size)) > maxWidth { chars.removeLast() }
    return chars.isEmpty ? "" : String(chars) + "…"
  }

  /// Makes sure the texture of `text` exists. Creating a texture makes SDL flush the draws
  /// batched so far: a host that prepares every text of a frame before drawing anything
  /// pays that flush with an empty batch.
  @discardableResult
  public func preparedText(_ text: String, size: Int, color: Color) -> (texture: OpaquePointer, w: Int32, h: Int32)? {
    let key = "\(size)|\(color.r),\(color.g),\(color.b),\(color.a)|\(text)"
    if let entry = textCache[key] { return entry }
    guard let f = font(size: size),
      let surface = TTF_RenderUTF8_Blended(f, text, SDL_Color(r: color.r, g: color.g, b: color.b, a: color.a))
    else { return nil }
    defer { SDL_FreeSurface(surface) }
    guard let texture = SDL_CreateTextureFromSurface(renderer, surface) else { return nil }
    let entry = (texture: texture, w: surface.pointee.w, h: surface.pointee.h)
    if textCache.count > 512 {
      for (_, t) in textCache { SDL_DestroyTexture(t.texture) }
      textCache.removeAll()
    }
    textCache[key] = entry
    return entry
  }

  /// Draws `text` with its top edge at y, its left edge (or centre, with `centered`) at x;
  /// textures are cached per string, size and colour. Returns the width drawn (0 without a
  /// font).
  @discardableResult
  public func text(_ text: String, x: Double, y: Double, size: Int = 16, color: Color = Color(20, 20, 20), centered: Bool = false)
    -> Int
  {
    guard !text.isEmpty, let entry = preparedText(text, size: size, color: color) else { return 0 }
    let left = centered ? x - Double(entry.w) / 2 : x
    var dst = SDL_Rect(x: Int32(left.rounded()), y: Int32(y.rounded()), w: entry.w, h: entry.h)
    SDL_RenderCopy(renderer, entry.texture, nil, &dst)
    return Int(entry.w)
  }
}

/// A GPU texture of RGBA pixels: 4 bytes a pixel, red, green, blue, alpha (packed 32-bit
/// pixels with red in the low byte on a little-endian machine). Owned; destroyed in `deinit`.
/// It takes bytes rather than an image type so that the adapter depends on SDL alone; the
/// app converts its images (`Texture+RGBAImage.swift` there).
public final class Texture {
  public let texture: OpaquePointer
  public let width: Int
  public let height: Int

  /// A `width`×`height` texture, its pixels undefined until `update`; `streaming` ones can
  /// be updated every frame.
  public init(_ window: Window, width: Int, height: Int, streaming: Bool = false) throws(SDLError) {
    guard
      let t = SDL_CreateTexture(
        window.renderer, SDL_PIXELFORMAT_ABGR8888.rawValue,
        Int32(streaming ? SDL_TEXTUREACCESS_STREAMING.rawValue : SDL_TEXTUREACCESS_STATIC.rawValue), Int32(width),
        Int32(height))
    else { throw .current("cannot create a \(width)×\(height) texture") }
    texture = t
    self.width = width
    self.height = height
    SDL_SetTextureBlendMode(t, SDL_BLENDMODE_BLEND)
  }

  deinit { SDL_DestroyTexture(texture) }

  /// Replaces every pixel with `pixels`: `height` rows of `width` pixels, from the top.
  public func update(pixels: UnsafeRawBufferPointer) {
    precondition(pixels.count >= width * height * 4, "texture update: \(pixels.count) bytes for \(width)×\(height)")
    _ = SDL_UpdateTexture(texture, nil, pixels.baseAddress, Int32(width * 4))
  }

  /// Draws the texture into `rect`, with `alpha` 0–255.
  public func draw(_ window: Window, in rect: PixelRect, alpha: UInt8 = 255) {
    SDL_SetTextureAlphaMod(texture, alpha)
    var dst = rect.sdl
    SDL_RenderCopy(window.renderer, texture, nil, &dst)
  }
}
