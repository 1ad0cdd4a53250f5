/// Lays text out for the width it has, without the host's font: widths are estimated from
/// the character count. DejaVu Sans (the app) and system-ui (the page) average about 0.55 em
/// a character in English text; `averageAdvance` is a little wider so an estimate rarely
/// falls short, and a host still ellipsises a line that does not fit.
public enum TextLayout {
  /// Average advance of a character, in ems.
  public static let averageAdvance = 0.58

  /// The estimated width of `text` at `size` points.
  public static func width(_ text: String, size: Double) -> Double { Double(text.count) * size * averageAdvance }

  /// Whether `text` fits in `width` at `size`.
  public static func fits(_ text: String, width: Double, size: Double) -> Bool { Self.width(text, size: size) <= width }

  /// `text` broken at spaces into lines no wider than `width`, at most `maxLines` (the last
  /// one then holds the rest, for the host to ellipsise). A word longer than a line gets a
  /// line of its own.
  /// - Complexity: O(n) in the length of `text`.
  public static func lines(_ text: String, width: Double, size: Double, maxLines: Int = .max) -> [String] {
    let perLine = max(1, Int(width / (size * averageAdvance)))
    var lines: [String] = []
    var current = ""
    for word in text.split(separator: " ", omittingEmptySubsequences: true) {
      if current.isEmpty {
        current = String(word)
      } else if current.count + 1 + word.count <= perLine || lines.count == maxLines - 1 {
        current += " " + word
      } else {
        lines.append(current)
        current = String(word)
      }
    }
    if !current.isEmpty { lines.append(current) }
    return lines
  }
}

extension DisplayList {
  /// `text` wrapped to `maxWidth`, `lineHeight` apart from `y` down; returns the lines used.
  @discardableResult
  mutating func wrappedText(
    _ s: String, _ x: Double, _ y: Double, size: Double, lineHeight: Double, color: RGBA = Palette.text,
    align: TextAlignment = .leading, maxWidth: Double, maxLines: Int = .max
  ) -> Int {
    let lines = TextLayout.lines(s, width: maxWidth, size: size, maxLines: maxLines)
    for (k, line) in lines.enumerated() {
      text(line, x, y + Double(k) * lineHeight, size: size, color: color, align: align, maxWidth: maxWidth)
    }
    return lines.count
  }
}
