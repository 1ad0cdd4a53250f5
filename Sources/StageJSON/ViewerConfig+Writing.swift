import CoreMath

// The other direction: a scene's settings back as Pannellum's JSON (`getConfig`), and the
// pieces a viewer's API adds at run time (`addScene`, `addHotSpot`), read with the same
// checks and messages as a file.

extension HotSpot {
  /// The hotspot as Pannellum's JSON entry.
  public var json: JSONValue {
    func target(_ t: Target?) -> JSONValue {
      switch t {
      case .degrees(let d): .number(d)
      case .same: "same"
      case .sameAzimuth: "sameAzimuth"
      case nil: .null
      }
    }
    var m: [(String, JSONValue)] = [("pitch", .number(pitch)), ("yaw", .number(yaw)), ("type", .string(kind.rawValue))]
    if let text { m.append(("text", .string(text))) }
    if let url { m.append(("URL", .string(url))) }
    if let sceneId { m.append(("sceneId", .string(sceneId))) }
    if targetPitch != nil { m.append(("targetPitch", target(targetPitch))) }
    if targetYaw != nil { m.append(("targetYaw", target(targetYaw))) }
    if targetHfov != nil { m.append(("targetHfov", target(targetHfov))) }
    if let id { m.append(("id", .string(id))) }
    if let cssClass { m.append(("cssClass", .string(cssClass))) }
    if draggable { m.append(("draggable", true)) }
    return .object(m)
  }

  /// One hotspot's JSON (the API's `addHotSpot`); `source` names it in messages.
  public static func parse(_ bytes: [UInt8], source: String) throws(InputError) -> (HotSpot, [ConfigWarning]) {
    try read(try ConfigValue.parse(bytes, source: source, in: .hotSpot), source: source)
  }

  /// One hotspot already parsed (the web viewer's `addHotSpot`, fed to a ``ViewerConfigFeed``).
  public static func read(_ value: ConfigValue, source: String) throws(InputError) -> (HotSpot, [ConfigWarning]) {
    var warnings: [ConfigWarning] = []
    let spot = try HotSpot(ConfigReader(value, path: source), warnings: &warnings)
    return (spot, warnings)
  }
}

extension ViewerScene {
  /// The scene as an entry of Pannellum's `scenes`: its settings and its hotspots.
  public var json: JSONValue {
    guard case .object(var m) = settings.json else { return settings.json }
    m.append(("hotSpots", .array(hotSpots.map { $0.json })))
    return .object(m)
  }
}

extension ViewerConfig {
  /// Adds (or replaces) scene `id` from one scene's JSON (the API's `addScene`), its
  /// settings over the tour's defaults. A value of the wrong type is a warning, as in a file.
  /// - Returns: the warnings about this scene (also added to `warnings`).
  /// - Throws: `InputError` when the text is not JSON.
  @discardableResult
  public mutating func addScene(_ id: String, json bytes: [UInt8], source: String) throws(InputError) -> [ConfigWarning] {
    addScene(id, config: try ConfigValue.parse(bytes, source: source, in: .settings), source: source)
  }

  /// Adds (or replaces) scene `id` from one scene already parsed (the web viewer's
  /// `addScene`, fed to a ``ViewerConfigFeed``), as from its text.
  @discardableResult
  public mutating func addScene(_ id: String, config: ConfigValue, source: String) -> [ConfigWarning] {
    var added: [ConfigWarning] = []
    let scene = ViewerScene.read(id, ConfigReader(config, path: "\(source) \(id)"), over: defaults, warnings: &added)
    if let k = scenes.firstIndex(where: { $0.id == id }) { scenes[k] = scene } else { scenes.append(scene) }
    warnings += added
    return added
  }

  /// Removes scene `id`; false when there is none.
  @discardableResult
  public mutating func removeScene(_ id: String) -> Bool {
    guard let k = scenes.firstIndex(where: { $0.id == id }) else { return false }
    scenes.remove(at: k)
    return true
  }

  /// Sets `settings` over every scene's (the viewer's URL parameters; the view's own angles
  /// go to `firstScene` only, since they name where it starts).
  public mutating func override(with settings: ViewerSettings) {
    var others = settings
    others[.yaw] = nil
    others[.pitch] = nil
    others[.hfov] = nil
    for k in scenes.indices {
      scenes[k].settings = (scenes[k].id == firstScene ? settings : others).merged(over: scenes[k].settings)
    }
    defaults = others.merged(over: defaults)
  }

  /// Changes scene `id` in place (the API's setters, hotspots added and removed).
  public mutating func updateScene(_ id: String, _ body: (inout ViewerScene) -> Void) {
    guard let k = scenes.firstIndex(where: { $0.id == id }) else { return }
    body(&scenes[k])
  }
}
