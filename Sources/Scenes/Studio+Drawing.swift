import Stage

extension Studio {
  /// Everything to draw this frame, in paint order, with the cursor.
  public func displayList() -> DisplayList {
    var list = DisplayList()
    list.fill(StageRect(x: 0, y: 0, width: viewport.width, height: viewport.height), Palette.background)
    let boardFocus: BoardFocus? = if case .board(let f) = focus { f } else { nil }
    switch active {
    case .locations: locations.draw(into: &list, focus: boardFocus)
    case .shortcuts: shortcuts.draw(into: &list, focus: boardFocus)
    case .panorama:
      if let panorama {
        let tabFocused: Bool = if case .tab = focus { true } else { false }
        panorama.draw(into: &list, tabFocused: tabFocused, touch: touchFirst)
        drawTourHotSpots(into: &list)
      } else {
        list.text(
          "Loading the panorama…", viewport.width / 2, contentFrame.center.y, size: 18, color: Palette.secondaryText,
          align: .center)
      }
    }
    for (n, kind) in SceneKind.allCases.enumerated() {
      let r = tabFrame(kind)
      list.fill(r, kind == active ? Palette.activeTab : Palette.tab)
      list.outline(r, RGBA(190, 194, 202))
      // The key number only where there is a keyboard to press it and room for it.
      let numbered = "\(n + 1)  \(kind.title)"
      let label = !touchFirst && TextLayout.fits(numbered, width: r.size.width - 8, size: 16) ? numbered : kind.title
      list.text(
        label, r.center.x, 12, size: 16, color: kind == active ? Palette.text : Palette.secondaryText, align: .center,
        maxWidth: r.size.width - 8)
    }
    if message != nil {
      list.fill(messageFrame, Palette.error)
      for (k, line) in messageLines.enumerated() {
        list.text(
          line, 10, messageFrame.minY + 6 + 18 * Double(k), size: 14, color: Palette.white, maxWidth: viewport.width - 60)
      }
      list.text("×", dismissFrame.center.x, dismissFrame.minY, size: 20, color: Palette.white, align: .center)
    }
    if let notice {
      let w = min(TextLayout.width(notice.text, size: 15) + 32, viewport.width - 20)
      let pill = StageRect(x: (viewport.width - w) / 2, y: viewport.height - 120, width: w, height: 34)
      list.fill(pill, Palette.notice, radius: 17)
      list.text(notice.text, pill.center.x, pill.minY + 8, size: 15, color: Palette.white, align: .center, maxWidth: w - 16)
    }
    if let focus, case .board = focus {
      // Drawn by the board, under its own items.
    } else if let focus {
      list.commands.append(.focusRing(frame(of: focus).insetBy(2)))
    }
    return list
  }
}
