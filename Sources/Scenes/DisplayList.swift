import Stage

/// An sRGB colour with alpha, 8 bits a channel.
public struct RGBA: Hashable, Sendable {
  public var r: UInt8, g: UInt8, b: UInt8, a: UInt8
  public init(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8 = 255) {
    self.r = r
    self.g = g
    self.b = b
    self.a = a
  }
}

/// The palette every host draws with, so the app and the page look alike.
public enum Palette {
  public static let background = RGBA(246, 247, 249)
  public static let text = RGBA(20, 20, 20)
  public static let secondaryText = RGBA(90, 96, 106)
  public static let slot = RGBA(226, 230, 236)
  public static let shortcutSlot = RGBA(210, 212, 218)
  public static let slotBorder = RGBA(150, 156, 166)
  public static let highlight = RGBA(255, 224, 130)
  public static let highlightBorder = RGBA(230, 150, 20)
  /// A drop target that will swap its item out.
  public static let swap = RGBA(190, 225, 255)
  public static let swapBorder = RGBA(40, 120, 220)
  /// A slot that refuses the drop.
  public static let refuse = RGBA(250, 210, 210)
  public static let refuseBorder = RGBA(200, 50, 50)
  public static let focus = RGBA(30, 110, 255)
  public static let tab = RGBA(222, 225, 231)
  public static let activeTab = RGBA(255, 255, 255)
  public static let button = RGBA(236, 238, 242)
  public static let error = RGBA(170, 30, 30, 235)
  public static let caption = RGBA(0, 0, 0, 150)
  /// A passing confirmation (a saved screenshot).
  public static let notice = RGBA(30, 34, 40, 235)
  public static let white = RGBA(255, 255, 255)
}

/// How a text run sits on its anchor point (the anchor is the text's top edge).
public enum TextAlignment: Hashable, Sendable {
  case leading, center, trailing
}

/// A name for an image a host holds (a texture, a canvas bitmap): photos by item id,
/// shortcut icons, the rendered panorama.
public enum ImageID: Hashable, Sendable {
  case photo(String)
  case icon(String)
  /// The panorama scene's rendered frame: the host renders it (CPU or GPU) into the rect.
  case panorama
}

/// One drawing step, in points, painted in order.
public enum DrawCommand: Hashable, Sendable {
  case fill(StageRect, RGBA, cornerRadius: Double)
  case outline(StageRect, RGBA, width: Double, cornerRadius: Double)
  case image(ImageID, StageRect, opacity: Double)
  /// Text whose top edge is at `at.y`; `maxWidth` clips it (the host ellipsises).
  case text(String, at: StagePoint, size: Double, color: RGBA, alignment: TextAlignment, maxWidth: Double?)
  /// A soft shadow under a lifted item: the host blurs by `radius` as well as it can.
  case shadow(StageRect, radius: Double, opacity: Double)
  /// The keyboard focus: hosts draw it clearly over everything else.
  case focusRing(StageRect)
}

/// What the pointer should look like.
public enum Cursor: Hashable, Sendable {
  case arrow
  /// Over something that can be pressed (a tab, a button).
  case pointer
  /// Over something that can be dragged.
  case grab
  /// While dragging.
  case grabbing
}

/// What a scene draws this frame: commands in paint order, and the cursor.
public struct DisplayList: Hashable, Sendable {
  public var commands: [DrawCommand] = []
  public var cursor: Cursor = .arrow

  public init() {}

  mutating func fill(_ r: StageRect, _ c: RGBA, radius: Double = 0) { commands.append(.fill(r, c, cornerRadius: radius)) }

  mutating func outline(_ r: StageRect, _ c: RGBA, width: Double = 1, radius: Double = 0) {
    commands.append(.outline(r, c, width: width, cornerRadius: radius))
  }

  mutating func text(
    _ s: String, _ x: Double, _ y: Double, size: Double, color: RGBA = Palette.text, align: TextAlignment = .leading,
    maxWidth: Double? = nil
  ) {
    guard !s.isEmpty else { return }
    commands.append(.text(s, at: StagePoint(x: x, y: y), size: size, color: color, alignment: align, maxWidth: maxWidth))
  }
}

/// How urgently a screen reader should speak an announcement (ARIA's `aria-live`).
public enum Politeness: String, Hashable, Sendable {
  /// After what it is saying now.
  case polite
  /// At once: errors, and what a key the user just pressed did.
  case assertive
}

/// A sentence for a screen reader.
public struct Announcement: Hashable, Sendable {
  public var text: String
  public var politeness: Politeness
  public init(_ text: String, _ politeness: Politeness = .polite) {
    self.text = text
    self.politeness = politeness
  }
}
