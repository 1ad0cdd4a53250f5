import Panorama
import Scenes
import Stage
import StageSDL

/// Paints a display list with SDL: the only place the app turns scene output into pixels.
struct DisplayListPainter {
  let window: Window

  func paint(_ list: DisplayList, image: (ImageID) -> Texture?) {
    // Every text's texture first: creating one flushes SDL's batch, so do it while the
    // batch is empty (see `Window.preparedText`).
    var fittedTexts: [Int: String] = [:]
    for (k, command) in list.commands.enumerated() {
      guard case .text(let s, _, let size, let c, _, let maxWidth) = command else { continue }
      let points = Int(size.rounded())
      let text = maxWidth.map { window.fitted(s, size: points, maxWidth: $0) } ?? s
      fittedTexts[k] = text
      if !text.isEmpty { window.preparedText(text, size: points, color: color(c)) }
    }
    for (k, command) in list.commands.enumerated() {
      switch command {
      case .fill(let r, let c, let radius):
        window.fill(pixel(r), color(c), radius: Int32(radius.rounded()))
      case .outline(let r, let c, let width, _):
        window.outline(pixel(r), color(c), thickness: Int32(max(1, width.rounded())))
      case .image(let id, let r, let opacity):
        image(id)?.draw(window, in: pixel(r), alpha: UInt8(max(0, min(1, opacity)) * 255))
      case .text(let s, let at, let size, let c, let alignment, let maxWidth):
        let points = Int(size.rounded())
        let text = fittedTexts[k] ?? maxWidth.map { window.fitted(s, size: points, maxWidth: $0) } ?? s
        var x = at.x
        if alignment == .trailing { x -= Double(window.textWidth(text, size: points)) }
        window.text(text, x: x, y: at.y, size: points, color: color(c), centered: alignment == .center)
      case .shadow(let r, let radius, let opacity):
        // Rings growing outward with falling alpha: a soft edge without a blur pass.
        let steps = max(1, Int(radius / 3))
        for k in (0..<steps).reversed() {
          let grow = Double(k) * 3
          let alpha = opacity * 255 * (1 - Double(k) / Double(steps)) / Double(steps) * 1.6
          window.fill(pixel(r.insetBy(-grow)), Color(0, 0, 0, UInt8(min(255, alpha))), radius: Int32(grow + 4))
        }
      case .focusRing(let r):
        window.outline(pixel(r), color(Palette.focus), thickness: 3)
        window.outline(pixel(r.insetBy(3)), Color(255, 255, 255), thickness: 1)
      }
    }
    switch list.cursor {
    case .arrow: window.setCursor(.arrow)
    case .pointer: window.setCursor(.hand)
    case .grab: window.setCursor(.hand)
    case .grabbing: window.setCursor(.move)
    }
  }

  func pixel(_ r: StageRect) -> PixelRect { PixelRect(x: r.minX, y: r.minY, w: r.size.width, h: r.size.height) }
  func color(_ c: RGBA) -> Color { Color(c.r, c.g, c.b, c.a) }
}
