/// The three scenes, written once: their order, names and the keys that show them.
public enum SceneKind: String, Hashable, Sendable, CaseIterable {
  /// Seed 000: drag a photo onto one of the location slots.
  case locations
  /// Seed 001: drag a shortcut icon onto a slot; the slot shows it.
  case shortcuts
  /// Seed 003: a panorama turned by motion or by hand.
  case panorama

  /// The tab's title.
  public var title: String {
    switch self {
    case .locations: "Locations"
    case .shortcuts: "Shortcuts"
    case .panorama: "Panorama"
    }
  }

  /// The digit key that shows the scene ("1" for the first tab).
  public var key: KeyName { .character(Character(String(Self.allCases.firstIndex(of: self)! + 1))) }

  /// Whether the scene is a board of slots and items (Locations, Shortcuts).
  public var isBoard: Bool { self != .panorama }
}
